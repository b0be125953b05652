import { describe, expect, it } from 'vitest';
import { DESTRUCTIVE, defineTool, READ_ONLY, type ToolAnnotations } from '../tool/index.js';
import { createRegistry } from './tool-registry.js';

const makeTool = (name: string, annotations: ToolAnnotations) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    annotations,
    execute: () => name,
  });

describe('configureOrigin', () => {
  it("applies to that origin's tool only: a tool of a later layer that takes the name keeps its own", () => {
    const registry = createRegistry({ env: {}, tools: { wipe: { timeoutMs: 900 } } });
    registry.addOrigin({
      name: 'up',
      layer: 'bundled',
      trusted: false,
      tools: [makeTool('wipe', READ_ONLY)],
    });
    registry.configureOrigin('up', 'wipe', {
      annotations: { readOnlyHint: true },
      scopes: [],
      blocked: { reason: 'not pinned' },
    });
    // The origin's tool gets its configuration, over the name's.
    expect(registry.resolve('wipe')).toMatchObject({
      origin: 'up',
      blocked: { reason: 'not pinned' },
      timeoutMs: 900,
    });
    expect(registry.originConfig('up', 'wipe')?.blocked?.reason).toBe('not pinned');

    registry.addOrigin({ name: 'home', layer: 'global', tools: [makeTool('wipe', DESTRUCTIVE)] });
    const local = registry.resolve('wipe');
    expect(local?.origin).toBe('home');
    expect(local?.blocked).toBeUndefined();
    expect(local?.effective.readOnlyHint).toBe(false);
    expect(local?.class).toBe('destructive');
    // The configuration of the name still reaches it.
    expect(local?.timeoutMs).toBe(900);

    // Back to the origin's tool when the shadowing one goes; gone with the origin.
    registry.removeOrigin('home');
    expect(registry.resolve('wipe')?.blocked?.reason).toBe('not pinned');
    registry.removeOrigin('up');
    expect(registry.originConfig('up', 'wipe')).toBeUndefined();
  });

  it('throws unknown_origin for an origin not registered', () => {
    const registry = createRegistry({ env: {} });
    expect(() => registry.configureOrigin('nope', 'wipe', { timeoutMs: 5 })).toThrow(
      expect.objectContaining({ code: 'unknown_origin' }),
    );
  });
});

describe('configuredByName: false', () => {
  it("keeps configuration by name off the origin's tools, also when one takes a local tool's name", () => {
    const registry = createRegistry({
      env: {},
      tools: { wipe: { annotations: { readOnlyHint: true }, timeoutMs: 900, scopes: [] } },
    });
    registry.addOrigin({ name: 'home', layer: 'global', tools: [makeTool('wipe', DESTRUCTIVE)] });
    expect(registry.resolve('wipe')).toMatchObject({ origin: 'home', timeoutMs: 900 });

    // The local tool goes (held back, removed); a server's tool of that name takes it.
    registry.removeOrigin('home');
    registry.addOrigin({
      name: 'up',
      layer: 'bundled',
      trusted: true,
      configuredByName: false,
      tools: [makeTool('wipe', DESTRUCTIVE)],
    });
    const upstream = registry.resolve('wipe');
    expect(upstream?.origin).toBe('up');
    expect(upstream?.timeoutMs).toBeUndefined();
    expect(upstream?.effective.readOnlyHint).toBe(false);
    expect(registry.origin('up')?.configuredByName).toBe(false);
    // Its own origin's configuration still reaches it.
    registry.configureOrigin('up', 'wipe', { timeoutMs: 300 });
    expect(registry.resolve('wipe')?.timeoutMs).toBe(300);
    // And the setting survives a change of the origin's cap.
    registry.setConcurrency('up', 2);
    expect(registry.resolve('wipe')?.timeoutMs).toBe(300);
    expect(registry.config('wipe')?.timeoutMs).toBe(900);
  });

  it('refuses a configuredByName that is not a boolean', () => {
    const registry = createRegistry({ env: {} });
    expect(() =>
      registry.addOrigin({
        name: 'up',
        layer: 'bundled',
        configuredByName: 'no' as unknown as boolean,
      }),
    ).toThrow(/configuredByName must be true or false/);
  });
});

describe('configureOriginTools', () => {
  it('configures many tools of an origin with one change, and refuses a malformed one whole', () => {
    const registry = createRegistry({ env: {} });
    const names = Array.from({ length: 50 }, (_, i) => `t${i}`);
    registry.addOrigin({
      name: 'up',
      layer: 'bundled',
      trusted: false,
      tools: names.map((name) => makeTool(name, READ_ONLY)),
    });
    registry.configureOrigin('up', 't0', { blocked: { reason: 'held' } });
    const changes: number[] = [];
    registry.onChange((list) => changes.push(list.length));
    registry.configureOriginTools(
      'up',
      new Map([
        ...names.slice(1).map((name) => [name, { trusted: true }] as const),
        ['t0', undefined] as const,
      ]),
    );
    // One change event for all 50 tools.
    expect(changes).toEqual([50]);
    expect(registry.resolve('t0')?.blocked).toBeUndefined();
    expect(registry.resolve('t7')?.effective.readOnlyHint).toBe(true);
    expect(registry.originConfig('up', 't7')).toEqual({ trusted: true });

    expect(() =>
      registry.configureOriginTools(
        'up',
        new Map([
          ['t1', undefined],
          ['t2', { timeoutMs: -1 }],
        ]),
      ),
    ).toThrow(/timeoutMs/);
    expect(registry.originConfig('up', 't1')).toEqual({ trusted: true });
    expect(() => registry.configureOriginTools('nope', new Map())).toThrow(/No origin "nope"/);
  });
});
