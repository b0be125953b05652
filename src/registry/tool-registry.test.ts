import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HintgateError } from '../errors/hintgate-error.js';
import { defineTool, READ_ONLY, type ToolAnnotations } from '../tool/index.js';
import { createRegistry } from './tool-registry.js';

const makeTool = (name: string, annotations: ToolAnnotations = READ_ONLY) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    annotations,
    execute: () => name,
  });

const names = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof HintgateError) return error.code;
    throw error;
  }
  return undefined;
};

describe('layers and shadowing', () => {
  it('resolves [bundled, global, project] definitions of one name to the project one, reporting what it shadows', () => {
    const registry = createRegistry({ env: {} });
    const projectRead = makeTool('read_file');
    const globalRead = makeTool('read_file');
    const bundledRead = makeTool('read_file');
    // Added in reverse layer order: the layer decides, not the insertion order.
    registry.addOrigin({
      name: 'proj',
      layer: 'project',
      tools: [projectRead, makeTool('deploy')],
    });
    registry.addOrigin({ name: 'user', layer: 'global', tools: [globalRead] });
    registry.addOrigin({
      name: 'core',
      layer: 'bundled',
      tools: [bundledRead, makeTool('search')],
    });

    const winner = registry.resolve('read_file');
    expect(winner?.tool).toBe(projectRead);
    expect(winner).toMatchObject({ name: 'read_file', origin: 'proj', layer: 'project' });
    expect(winner?.shadows).toEqual([
      { origin: 'user', layer: 'global' },
      { origin: 'core', layer: 'bundled' },
    ]);
    expect(registry.resolve('search')).toMatchObject({ origin: 'core', shadows: [] });

    const described = registry.describe().find((d) => d.name === 'read_file');
    expect(described).toMatchObject({
      origin: 'proj',
      layer: 'project',
      visible: true,
      shadows: [
        { origin: 'user', layer: 'global' },
        { origin: 'core', layer: 'bundled' },
      ],
    });
    expect(described).not.toHaveProperty('disabledBy');
    expect(names(registry.list())).toEqual(['deploy', 'read_file', 'search']);
  });

  it('lets the shadowed definition win again when the shadowing origin goes away', () => {
    const registry = createRegistry({ env: {} });
    const globalRead = makeTool('read_file');
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('read_file')] });
    registry.addOrigin({ name: 'user', layer: 'global', tools: [globalRead] });
    registry.addOrigin({ name: 'proj', layer: 'project', tools: [makeTool('read_file')] });

    registry.removeOrigin('proj');
    expect(registry.resolve('read_file')?.tool).toBe(globalRead);
    expect(registry.resolve('read_file')?.shadows).toEqual([{ origin: 'core', layer: 'bundled' }]);

    registry.setTools('user', []);
    expect(registry.resolve('read_file')).toMatchObject({ origin: 'core', shadows: [] });
  });

  it('accepts tools with typed arguments (zod) and hands back the same object', () => {
    const readFile = defineTool({
      name: 'read_file',
      description: 'Reads a file.',
      inputSchema: z.object({ path: z.string() }),
      resources: ['file:{path}'],
      annotations: READ_ONLY,
      execute: ({ path }) => path,
    });
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'local', layer: 'bundled', tools: [readFile] });
    expect(registry.resolve('read_file')?.tool).toBe(readFile);
  });

  it('computes a registered tool once per mutation: resolve and list return the same object', () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'local', layer: 'bundled', tools: [makeTool('a')] });
    const first = registry.resolve('a');
    expect(first).toBeDefined();
    expect(registry.resolve('a')).toBe(first);
    expect(registry.list()[0]).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});

describe('duplicates within one layer', () => {
  it('rejects a name defined by two origins of one layer, naming both, and changes nothing', () => {
    const registry = createRegistry({ env: {} });
    const first = makeTool('deploy');
    registry.addOrigin({ name: 'alpha', layer: 'project', tools: [first] });
    const before = registry.describe();

    let error: unknown;
    try {
      registry.addOrigin({
        name: 'beta',
        layer: 'project',
        tools: [makeTool('x'), makeTool('deploy')],
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HintgateError);
    expect((error as HintgateError).code).toBe('duplicate_tool');
    expect((error as HintgateError).message).toMatch(/"alpha".*"beta"/);
    expect((error as HintgateError).message).toMatch(/rename/);
    expect((error as HintgateError).message).toMatch(/another layer/);

    expect(names(registry.origins())).toEqual(['alpha']);
    expect(registry.describe()).toEqual(before);
    expect(registry.resolve('x')).toBeUndefined();
    expect(registry.resolve('deploy')?.tool).toBe(first);
    // The rejected origin was not half-added: the name is still free.
    registry.addOrigin({ name: 'beta', layer: 'global', tools: [makeTool('deploy')] });
    expect(registry.resolve('deploy')?.tool).toBe(first);
  });

  it('rejects a list that names one tool twice', () => {
    const registry = createRegistry({ env: {} });
    expect(
      codeOf(() =>
        registry.addOrigin({ name: 'a', layer: 'bundled', tools: [makeTool('x'), makeTool('x')] }),
      ),
    ).toBe('duplicate_tool');
    expect(registry.origins()).toEqual([]);
  });

  it('rejects setTools that would clash and keeps the old tools', () => {
    const registry = createRegistry({ env: {} });
    const old = makeTool('old');
    registry.addOrigin({ name: 'a', layer: 'global', tools: [makeTool('x')] });
    registry.addOrigin({ name: 'b', layer: 'global', tools: [old] });
    expect(codeOf(() => registry.setTools('b', [makeTool('x')]))).toBe('duplicate_tool');
    expect(registry.resolve('old')?.tool).toBe(old);
    expect(names(registry.list())).toEqual(['old', 'x']);
  });
});

describe('origins', () => {
  it('reports origins sorted by layer then name, trusted by default', () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'zeta', layer: 'project', trusted: false, concurrency: 1 });
    registry.addOrigin({ name: 'local', layer: 'bundled', tools: [makeTool('a')] });
    registry.addOrigin({ name: 'alpha', layer: 'project', concurrency: Number.POSITIVE_INFINITY });
    expect(registry.origins()).toEqual([
      { name: 'local', layer: 'bundled', trusted: true, toolCount: 1 },
      { name: 'alpha', layer: 'project', trusted: true, concurrency: Infinity, toolCount: 0 },
      { name: 'zeta', layer: 'project', trusted: false, concurrency: 1, toolCount: 0 },
    ]);
    expect(registry.origin('zeta')).toEqual(registry.origins()[2]);
    expect(registry.origin('local')).toEqual({
      name: 'local',
      layer: 'bundled',
      trusted: true,
      toolCount: 1,
    });
    expect(registry.origin('nope')).toBeUndefined();
  });

  it('throws unknown_origin, duplicate_origin, invalid_option and invalid_tool', () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'local', layer: 'bundled' });
    expect(codeOf(() => registry.setTools('nope', []))).toBe('unknown_origin');
    expect(codeOf(() => registry.removeOrigin('nope'))).toBe('unknown_origin');
    expect(codeOf(() => registry.addOrigin({ name: 'local', layer: 'global' }))).toBe(
      'duplicate_origin',
    );
    const bad: unknown[] = [
      { name: '', layer: 'bundled' },
      { name: 'x', layer: 'user' },
      { name: 'x', layer: 'global', trusted: 'yes' },
      { name: 'x', layer: 'global', concurrency: 0 },
      { name: 'x', layer: 'global', concurrency: 1.5 },
      { name: 'x', layer: 'global', tools: 'read_file' },
      { name: 'x', layer: 'global', prefix: 'x_' },
    ];
    for (const options of bad) {
      expect(codeOf(() => registry.addOrigin(options as never))).toBe('invalid_option');
    }
    const notATool = { name: 'fake', description: 'd', execute: () => 1 };
    expect(
      codeOf(() => registry.addOrigin({ name: 'x', layer: 'global', tools: [notATool as never] })),
    ).toBe('invalid_tool');
    expect(codeOf(() => registry.setTools('local', [notATool as never]))).toBe('invalid_tool');
    expect(names(registry.origins())).toEqual(['local']);
  });

  it('explains in the invalid_option message what is allowed', () => {
    const registry = createRegistry({ env: {} });
    expect(() => registry.addOrigin({ name: 'x', layer: 'user' as never })).toThrow(
      /bundled, global, project/,
    );
    expect(() => registry.addOrigin({ name: 'x', layer: 'global', concurrency: -1 })).toThrow(
      /positive integer or Infinity/,
    );
  });
});

describe('deterministic listing', () => {
  const all = ['b', 'B', 'a', 'a.b', 'a-b', '_z', 'Z'];
  const expected = ['B', 'Z', '_z', 'a', 'a-b', 'a.b', 'b'];

  it('sorts by plain code units whatever the insertion order', () => {
    const forward = createRegistry({ env: {} });
    forward.addOrigin({
      name: 'one',
      layer: 'bundled',
      tools: all.slice(0, 3).map((n) => makeTool(n)),
    });
    forward.addOrigin({
      name: 'two',
      layer: 'project',
      tools: all.slice(3).map((n) => makeTool(n)),
    });

    const backward = createRegistry({ env: {} });
    const reversed = [...all].reverse();
    backward.addOrigin({
      name: 'two',
      layer: 'global',
      tools: reversed.slice(0, 4).map((n) => makeTool(n)),
    });
    backward.addOrigin({
      name: 'one',
      layer: 'project',
      tools: reversed.slice(4).map((n) => makeTool(n)),
    });

    expect(names(forward.list())).toEqual(expected);
    expect(names(backward.list())).toEqual(expected);
    expect(names(forward.describe())).toEqual(expected);
    expect(names(backward.describe())).toEqual(expected);
  });
});
