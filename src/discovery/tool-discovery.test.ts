import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryAuditSink } from '../audit/memory-audit-sink.js';
import { createRegistry } from '../registry/index.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { type CallResult, defineTool, READ_ONLY } from '../tool/index.js';
import {
  type DiscoveryDirs,
  discoveryDirs,
  readToolModule,
  TOOL_API_URL,
} from './discovery.test-helpers.js';
import { createToolDiscovery } from './tool-discovery.js';
import { createTrustStore } from './trust-store.js';

let dirs: DiscoveryDirs;
beforeEach(async () => {
  dirs = await discoveryDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

const builtin = defineTool({
  name: 'greet',
  description: 'bundled greeting',
  inputSchema: { type: 'object', properties: {} },
  annotations: READ_ONLY,
  execute: () => 'bundled',
});

const textOf = (result: CallResult): string => {
  const block = result.content[0];
  return block?.type === 'text' ? (block as { text: string }).text : '';
};

describe('tool discovery', () => {
  it('reports shadowing bundled < global < project in describe() and the layer in audit records', async () => {
    const globalFile = await dirs.writeGlobal(
      'greet.mjs',
      `import { defineTool, READ_ONLY } from ${JSON.stringify(TOOL_API_URL)};
export const greet = defineTool({ name: 'greet', description: 'global greeting',
  inputSchema: { type: 'object', properties: {} }, annotations: READ_ONLY, execute: () => 'global' });
export const weather = defineTool({ name: 'weather', description: 'weather',
  inputSchema: { type: 'object', properties: {} }, annotations: READ_ONLY, execute: () => 'sunny' });`,
    );
    const projectFile = await dirs.writeProject('greet.mjs', readToolModule('greet', 'project'));
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'builtin', layer: 'bundled', tools: [builtin] });
    await createToolDiscovery({
      registry,
      home: dirs.home,
      project: dirs.project,
      askTrust: () => 'once',
    });

    const greet = registry.describe().find((d) => d.name === 'greet');
    expect(greet).toMatchObject({
      origin: 'project:greet.mjs',
      layer: 'project',
      file: projectFile,
      shadows: [
        { origin: 'global:greet.mjs', layer: 'global', file: globalFile },
        { origin: 'builtin', layer: 'bundled' },
      ],
    });
    expect(registry.resolve('weather')).toMatchObject({ layer: 'global', file: globalFile });

    const sink = createMemoryAuditSink();
    const runtime = createRuntime({ registry, auditSinks: [sink], mode: 'auto' });
    const [result] = await runtime.execute([{ id: '1', name: 'greet', arguments: {} }]);
    expect(result && textOf(result)).toBe('project');
    const started = sink.events.find((e) => e.type === 'call.started');
    expect(started).toMatchObject({ tool: 'greet', origin: 'project:greet.mjs', layer: 'project' });
    await runtime.close();
  });

  it('holds untrusted project tools back, with the command that trusts them, until the folder is trusted', async () => {
    const file = await dirs.writeProject('deploy.mjs', readToolModule('deploy', 'deployed'));
    const problems: string[] = [];
    const registry = createRegistry({ env: {} });
    const discovery = await createToolDiscovery({
      registry,
      home: dirs.home,
      project: dirs.project,
      onProblem: (message) => problems.push(message),
    });
    expect(registry.resolve('deploy')).toBeUndefined();
    const held = discovery.status().heldBack;
    expect(held).toMatchObject({ status: 'new', files: [file] });
    expect(held?.command).toBe(`hintgate trust ${JSON.stringify(dirs.project)}`);
    expect(problems.join('\n')).toContain(held?.command);

    await createTrustStore({ home: dirs.home }).trust(dirs.project, held?.hash ?? '');
    await registry.reload();
    expect(registry.resolve('deploy')).toMatchObject({ layer: 'project', file });
    expect(discovery.status().heldBack).toBeUndefined();
  });

  it('asks again when a trusted project tool file changed, and holds it back when refused', async () => {
    await dirs.writeProject('deploy.mjs', readToolModule('deploy', 'v1'));
    const asked: string[] = [];
    let answer: 'always' | 'deny' = 'always';
    const registry = createRegistry({ env: {} });
    const discovery = await createToolDiscovery({
      registry,
      home: dirs.home,
      project: dirs.project,
      askTrust: (request) => {
        asked.push(request.status);
        return answer;
      },
    });
    expect(asked).toEqual(['new']);
    expect(registry.resolve('deploy')).toBeDefined();
    await registry.reload();
    expect(asked).toEqual(['new']);

    await dirs.writeProject('deploy.mjs', readToolModule('deploy', 'v2'));
    answer = 'deny';
    await registry.reload();
    expect(asked).toEqual(['new', 'changed']);
    expect(registry.resolve('deploy')).toBeUndefined();
    expect(discovery.status().heldBack?.status).toBe('changed');
  });

  it('leaves a broken module out with a message naming the file and the fix; the others load', async () => {
    await dirs.writeGlobal('good.mjs', readToolModule('good', 'fine'));
    const broken = await dirs.writeGlobal(
      'broken.mjs',
      `export default (api) => api.defineTool({ name: 'bad name!', description: 'x',
  inputSchema: { type: 'object' }, execute: () => 'x' });`,
    );
    const empty = await dirs.writeGlobal('empty.mjs', 'export const answer = 42;\n');
    const syntax = await dirs.writeGlobal('syntax.mjs', 'export const = ;\n');
    const problems: string[] = [];
    const registry = createRegistry({ env: {} });
    const discovery = await createToolDiscovery({
      registry,
      home: dirs.home,
      onProblem: (message) => problems.push(message),
    });
    expect(registry.list().map((r) => r.name)).toEqual(['good']);
    const byFile = new Map(discovery.status().problems.map((p) => [p.file, p.message]));
    expect(byFile.get(broken)).toMatch(/broken\.mjs.*1-128 characters/s);
    expect(byFile.get(empty)).toContain('exports no tool: export tools made by defineTool()');
    expect(byFile.get(syntax)).toContain('cannot be loaded');
    expect(problems).toHaveLength(3);
  });

  it('leaves out a module whose tool name another file of the same layer defines', async () => {
    const first = await dirs.writeGlobal('a.mjs', readToolModule('same', 'a'));
    const second = await dirs.writeGlobal('b.mjs', readToolModule('same', 'b'));
    const registry = createRegistry({ env: {} });
    const discovery = await createToolDiscovery({ registry, home: dirs.home });
    expect(registry.resolve('same')?.file).toBe(first);
    expect(discovery.status().problems).toEqual([
      expect.objectContaining({ file: second, message: expect.stringContaining('rename one') }),
    ]);
  });

  it('calls init before the first call and dispose on close, once each', async () => {
    const log = join(dirs.home, 'lifecycle.log');
    await dirs.writeGlobal(
      'pool.mjs',
      readToolModule(
        'pooled',
        'done',
        `import { appendFileSync } from 'node:fs';
export function init() { appendFileSync(${JSON.stringify(log)}, 'init\\n'); }
export function dispose() { appendFileSync(${JSON.stringify(log)}, 'dispose\\n'); }`,
      ),
    );
    await writeFile(log, '');
    const registry = createRegistry({ env: {} });
    await createToolDiscovery({ registry, home: dirs.home });
    const runtime = createRuntime({ registry, mode: 'auto' });
    expect(await readFile(log, 'utf8')).toBe('');
    const results = await runtime.execute([
      { id: '1', name: 'pooled', arguments: {} },
      { id: '2', name: 'pooled', arguments: {} },
    ]);
    await runtime.execute([{ id: '3', name: 'pooled', arguments: {} }]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(await readFile(log, 'utf8')).toBe('init\n');
    await runtime.close();
    await runtime.close();
    expect(await readFile(log, 'utf8')).toBe('init\ndispose\n');
  });

  it('applies a reload during a turn to the next turn; the turn under way keeps its tools', async () => {
    await dirs.writeGlobal('version.mjs', readToolModule('version', 'v1'));
    const registry = createRegistry({ env: {} });
    await createToolDiscovery({ registry, home: dirs.home });
    const runtime = createRuntime({ registry, mode: 'auto' });

    const turn = runtime.turn();
    const first = await turn.call({ id: '1', name: 'version', arguments: {} });
    const loaded = globalThis as { hintgateTestLoaded?: string };
    await dirs.writeGlobal(
      'version.mjs',
      readToolModule('version', 'v2', "globalThis.hintgateTestLoaded = 'v2';"),
    );
    let reloaded = false;
    const reload = registry.reload().then(() => {
      reloaded = true;
    });
    // The reload has read and imported the changed file; it must still wait for the turn.
    while (loaded.hintgateTestLoaded !== 'v2') {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await turn.call({ id: '2', name: 'version', arguments: {} });
    expect(reloaded).toBe(false);
    await turn.end();
    await reload;
    const [third] = await runtime.execute([{ id: '3', name: 'version', arguments: {} }]);
    expect([first, second, third].map((r) => r && textOf(r))).toEqual(['v1', 'v1', 'v2']);
    delete loaded.hintgateTestLoaded;
    await runtime.close();
  });
});
