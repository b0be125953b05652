import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry } from '../registry/index.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';

const look = (description: string) =>
  defineTool({
    name: 'look',
    description,
    annotations: READ_ONLY,
    inputSchema: z.object({ path: z.string() }),
    execute: () => 'ok',
  });

describe('runtime.listTools', () => {
  it('lists each tool by one frozen listing, made again only for a changed tool', () => {
    const registry = createRegistry();
    registry.addOrigin({ name: 'local', layer: 'project', tools: [look('Looks.')], trusted: true });
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const [first] = runtime.listTools();
    const [again] = runtime.listTools();
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toMatchObject({ name: 'look', description: 'Looks.' });
    registry.setTools('local', [look('Looks closer.')]);
    const [changed] = runtime.listTools();
    expect(changed).not.toBe(first);
    expect(changed).toMatchObject({ name: 'look', description: 'Looks closer.' });
  });

  it("tells an origin's facts by one frozen record until the origin changes", () => {
    const registry = createRegistry();
    registry.addOrigin({
      name: 'local',
      layer: 'project',
      tools: [look('Looks.')],
      trusted: false,
    });
    const info = registry.origin('local');
    expect(registry.origin('local')).toBe(info);
    expect(Object.isFrozen(info)).toBe(true);
    registry.setTrusted('local', true);
    expect(registry.origin('local')).toMatchObject({ name: 'local', trusted: true });
    expect(info).toMatchObject({ trusted: false });
  });
});
