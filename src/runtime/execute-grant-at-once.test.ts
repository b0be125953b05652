import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../tool/presets.js';
import type { Tool } from '../tool/tool.js';
import { createRuntime } from './create-runtime.js';

/** Synchronous tools that log when they run. */
const loggingTools = (log: string[]): Tool[] => [
  defineTool({
    name: 'read',
    description: 'Reads an item.',
    annotations: READ_ONLY,
    inputSchema: z.object({ key: z.string() }),
    resources: ['item:{key}'],
    execute: ({ key }) => {
      log.push(`read ${key}`);
      return `read ${key}`;
    },
  }) as Tool,
  defineTool({
    name: 'write',
    description: 'Writes an item.',
    annotations: WRITE,
    inputSchema: z.object({ key: z.string() }),
    resources: ['item:{key}'],
    execute: ({ key }) => {
      log.push(`write ${key}`);
      return `wrote ${key}`;
    },
  }) as Tool,
];

describe('calls granted as they arrive', () => {
  it('run only after execute() returned: no tool runs during the arrival of its batch', async () => {
    const log: string[] = [];
    const runtime = createRuntime({ tools: loggingTools(log), mode: 'yolo' });
    const pending = runtime.execute([
      { id: 'r1', name: 'read', arguments: { key: 'a' } },
      { id: 'w1', name: 'write', arguments: { key: 'b' } },
    ]);
    // A batch handed over at the same time takes its place behind the first one's calls.
    const second = runtime.execute([{ id: 'w2', name: 'write', arguments: { key: 'a' } }]);
    expect(log).toEqual([]);
    const results = await pending;
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok']);
    await second;
    expect(log).toEqual(['read a', 'write b', 'write a']);
    await runtime.close();
  });

  it('run only after turn().call() returned', async () => {
    const log: string[] = [];
    const runtime = createRuntime({ tools: loggingTools(log), mode: 'yolo' });
    const turn = runtime.turn();
    const result = turn.call({ id: 'r1', name: 'read', arguments: { key: 'a' } });
    expect(log).toEqual([]);
    expect((await result).status).toBe('ok');
    expect(log).toEqual(['read a']);
    await turn.end();
    await runtime.close();
  });

  it('end cancelled before they started when the batch is cancelled as execute() returns', async () => {
    const log: string[] = [];
    const runtime = createRuntime({ tools: loggingTools(log), mode: 'yolo' });
    const controller = new AbortController();
    const pending = runtime.execute([{ id: 'r1', name: 'read', arguments: { key: 'a' } }], {
      signal: controller.signal,
    });
    controller.abort();
    const [result] = await pending;
    expect(result?.error?.code).toBe('cancelled');
    expect(result?.error?.message).toBe(
      'Tool "read" did not run: the batch was cancelled before this call started',
    );
    expect(log).toEqual([]);
    // Its lock was freed: a later call of the same item runs.
    const [after] = await runtime.execute([{ id: 'w1', name: 'write', arguments: { key: 'a' } }]);
    expect(after?.status).toBe('ok');
    await runtime.close();
  });
});
