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
