import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';

const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  annotations: READ_ONLY,
  inputSchema: z.object({ path: z.string() }),
  resources: ['file:{path}'],
  execute: () => 'ok',
});

const keysIn = async (workspace: string, paths: readonly string[]) => {
  const runtime = createRuntime({ tools: [readFile], mode: 'yolo', workspace });
  const planned = await runtime.plan(
    paths.map((path, n) => ({ id: `c${n}`, name: 'read_file', arguments: { path } })),
  );
  await runtime.close();
  return planned.map((entry) => ('resourceKeys' in entry ? entry.resourceKeys : undefined));
};

describe('prepareCall: remembered resource keys', () => {
  it('normalizes the same key against each runtime its own workspace', async () => {
    const path = '/a/ws/src/../x.txt';
    expect(await keysIn('/a/ws', [path, path])).toEqual([['file:x.txt'], ['file:x.txt']]);
    expect(await keysIn('/b/ws', [path])).toEqual([['file:/a/ws/x.txt']]);
    expect(await keysIn('/a/ws', [path])).toEqual([['file:x.txt']]);
  });

  it('normalizes long keys and more distinct keys than it remembers', async () => {
    const long = `/a/ws/${'d/'.repeat(200)}../f.txt`;
    expect(await keysIn('/a/ws', [long])).toEqual([[`file:${'d/'.repeat(199)}f.txt`]]);
    const many = Array.from({ length: 5000 }, (_, n) => `./dir/../k${n}`);
    const keys = await keysIn('/a/ws', many);
    expect(keys[0]).toEqual(['file:k0']);
    expect(keys[4999]).toEqual(['file:k4999']);
    expect(await keysIn('/a/ws', ['./dir/../k0'])).toEqual([['file:k0']]);
  });

  it('gives calls on the same one key one shared, frozen list of it from the second on', async () => {
    const keys = ['./src/a.ts', './src/a.ts', './src/a.ts', 'b.ts'];
    const [first, second, third, other] = await keysIn('/a/ws', keys);
    expect(first).toEqual(['file:src/a.ts']);
    expect(second).toEqual(first);
    expect(third).toBe(second);
    expect(Object.isFrozen(second)).toBe(true);
    expect(other).toEqual(['file:b.ts']);
  });
});
