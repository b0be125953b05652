import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import type { ToolCall } from './tool-call.js';

describe('execute: the async context a waiting call runs in', () => {
  it("runs each call in its own batch's context, though another batch's call freed its slot", async () => {
    const trace = new AsyncLocalStorage<string>();
    const read = defineTool({
      name: 'read',
      description: 'Reads.',
      annotations: READ_ONLY,
      inputSchema: z.object({ n: z.number() }),
      // Asynchronous: a call's slot is freed in a later turn, by the call's own end.
      execute: async ({ n }) => `${n} in ${trace.getStore() ?? 'none'}`,
    });
    // One slot for both batches: their calls take turns, each let go by the other's end.
    const runtime = createRuntime({ tools: [read], mode: 'yolo', concurrency: { local: 1 } });
    const calls = (from: number): ToolCall[] =>
      Array.from({ length: 4 }, (_, k) => ({
        id: `c${from + k}`,
        name: 'read',
        arguments: { n: from + k },
      }));
    const [a, b] = await Promise.all([
      trace.run('trace A', () => runtime.execute(calls(0))),
      trace.run('trace B', () => runtime.execute(calls(10))),
    ]);
    await runtime.close();
    const texts = (results: typeof a) =>
      results.map((result) => (result.content[0] as { text: string }).text);
    expect(texts(a)).toEqual(['0 in trace A', '1 in trace A', '2 in trace A', '3 in trace A']);
    expect(texts(b)).toEqual(['10 in trace B', '11 in trace B', '12 in trace B', '13 in trace B']);
  });
});
