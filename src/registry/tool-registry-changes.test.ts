import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTool, READ_ONLY } from '../tool/index.js';
import type { ToolChange } from './registered-tool.js';
import { createRegistry } from './tool-registry.js';

const makeTool = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    annotations: READ_ONLY,
    execute: () => name,
  });

const recorder = () => {
  const registry = createRegistry({ env: {} });
  const events: (readonly ToolChange[])[] = [];
  registry.onChange((changes) => events.push(changes));
  return { registry, events };
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('change events', () => {
  it('emits added, updated and removed for origin changes, sorted by name', () => {
    const { registry, events } = recorder();
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('b'), makeTool('a')] });
    registry.addOrigin({ name: 'proj', layer: 'project', tools: [makeTool('b')] });
    registry.setTools('core', [makeTool('b'), makeTool('c')]);
    registry.removeOrigin('proj');
    registry.removeOrigin('core');
    expect(events).toEqual([
      [
        { type: 'added', name: 'a', origin: 'core' },
        { type: 'added', name: 'b', origin: 'core' },
      ],
      [{ type: 'updated', name: 'b', origin: 'proj' }],
      [
        { type: 'removed', name: 'a', origin: 'core' },
        { type: 'added', name: 'c', origin: 'core' },
      ],
      [{ type: 'updated', name: 'b', origin: 'core' }],
      [
        { type: 'removed', name: 'b', origin: 'core' },
        { type: 'removed', name: 'c', origin: 'core' },
      ],
    ]);
  });

  it('emits updated when setTools swaps in another tool object of the same name', () => {
    const { registry, events } = recorder();
    registry.addOrigin({ name: 'remote', layer: 'global', tools: [makeTool('x')] });
    registry.setTools('remote', [makeTool('x')]);
    expect(events.at(-1)).toEqual([{ type: 'updated', name: 'x', origin: 'remote' }]);
  });

  it('emits nothing for no-op mutations', () => {
    const { registry, events } = recorder();
    const x = makeTool('x');
    registry.addOrigin({ name: 'proj', layer: 'project', tools: [x] });
    events.length = 0;
    registry.setTools('proj', [x]);
    registry.addOrigin({ name: 'empty', layer: 'global' });
    registry.removeOrigin('empty');
    // Shadowing a hidden layer changes what x shadows, not the winner.
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('x')] });
    registry.configure('unknown', { enabled: false });
    registry.configure('x', { enabled: true });
    registry.reloadEnv();
    expect(() =>
      registry.addOrigin({ name: 'dup', layer: 'project', tools: [makeTool('x')] }),
    ).toThrow();
    expect(events).toEqual([]);
    expect(registry.resolve('x')?.tool).toBe(x);
  });

  it('emits for configuration and environment changes', () => {
    const { registry, events } = recorder();
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('x')] });
    events.length = 0;
    registry.configure('x', { enabled: false });
    registry.configure('x', undefined);
    registry.configure('x', { scopes: ['admin'] });
    registry.configure('x', { scopes: ['admin'], annotations: { openWorldHint: true } });
    // The same annotations again, and a claim restated: nothing changes.
    registry.configure('x', { scopes: ['admin'], annotations: { openWorldHint: true } });
    registry.configure('x', {
      scopes: ['admin'],
      annotations: { openWorldHint: true, readOnlyHint: true },
    });
    registry.reloadEnv({ TOOL_X_DISABLED: 'true' });
    expect(events).toEqual([
      [{ type: 'removed', name: 'x', origin: 'core' }],
      [{ type: 'added', name: 'x', origin: 'core' }],
      [{ type: 'updated', name: 'x', origin: 'core' }],
      [{ type: 'updated', name: 'x', origin: 'core' }],
      [{ type: 'removed', name: 'x', origin: 'core' }],
    ]);
  });

  it('stops calling a listener after it unsubscribes', () => {
    const registry = createRegistry({ env: {} });
    const listener = vi.fn();
    const unsubscribe = registry.onChange(listener);
    registry.addOrigin({ name: 'a', layer: 'bundled', tools: [makeTool('a')] });
    unsubscribe();
    registry.removeOrigin('a');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('a throwing listener', () => {
  it('is reported to onListenerError and does not stop the others or the mutation', () => {
    const reported: unknown[] = [];
    const registry = createRegistry({ env: {}, onListenerError: (e) => reported.push(e) });
    const boom = new Error('boom');
    const seen: string[] = [];
    registry.onChange(() => {
      throw boom;
    });
    registry.onChange((changes) => seen.push(...changes.map((c) => c.name)));
    registry.addOrigin({ name: 'a', layer: 'bundled', tools: [makeTool('a')] });
    registry.addOrigin({ name: 'b', layer: 'bundled', tools: [makeTool('b')] });
    expect(reported).toEqual([boom, boom]);
    expect(seen).toEqual(['a', 'b']);
    expect(registry.list().map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('is rethrown in a microtask by default', () => {
    const scheduled: (() => void)[] = [];
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      scheduled.push(task);
    });
    const registry = createRegistry({ env: {} });
    const boom = new Error('boom');
    registry.onChange(() => {
      throw boom;
    });
    const after = vi.fn();
    registry.onChange(after);
    registry.addOrigin({ name: 'a', layer: 'bundled', tools: [makeTool('a')] });
    expect(after).toHaveBeenCalledTimes(1);
    expect(scheduled).toHaveLength(1);
    expect(() => scheduled[0]?.()).toThrow(boom);
    expect(registry.resolve('a')).toBeDefined();
  });
});
