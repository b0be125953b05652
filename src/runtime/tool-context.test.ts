import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import type { Tool, ToolContext } from '../tool/tool.js';
import { createRuntime } from './create-runtime.js';

describe('the context a tool gets', () => {
  it('carries its signal, call id and attempt into a copy, and has no hidden keys', async () => {
    const seen: Record<string, unknown>[] = [];
    const tool = defineTool({
      name: 'look',
      description: 'Looks.',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      execute: (_args, context: ToolContext) => {
        const copy = { ...context };
        seen.push({
          signal: copy.signal instanceof AbortSignal,
          callId: copy.callId,
          attempt: copy.attempt,
          symbols: Object.getOwnPropertySymbols(context).length,
        });
        return 'ok';
      },
    }) as Tool;
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const [result] = await runtime.execute([{ id: 'c1', name: 'look', arguments: {} }]);
    expect(result?.status).toBe('ok');
    expect(seen).toEqual([{ signal: true, callId: 'c1', attempt: 1, symbols: 0 }]);
  });

  it('has a cancellation that aborts with the call, as its signal does, listeners called once', async () => {
    const heard: unknown[] = [];
    const tool = defineTool({
      name: 'wait',
      description: 'Waits until it is aborted.',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      execute: (_args, context: ToolContext) =>
        // Never settles: the timeout ends the call.
        new Promise<string>(() => {
          const { cancellation } = context;
          if (cancellation === undefined) throw new Error('no cancellation');
          const kept = (): void => {
            heard.push(['kept', cancellation.aborted, cancellation.reason]);
          };
          const removed = (): void => {
            heard.push('removed');
          };
          cancellation.addEventListener('abort', kept, { once: true });
          cancellation.addEventListener('abort', removed);
          cancellation.removeEventListener('abort', removed);
          context.signal.addEventListener('abort', () => {
            heard.push(['signal', context.signal.reason === cancellation.reason]);
          });
        }),
    }) as Tool;
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const [result] = await runtime.execute([
      { id: 'c1', name: 'wait', arguments: {}, timeoutMs: 50 },
    ]);
    expect(result?.status).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toHaveLength(2);
    expect(heard).toContainEqual(['signal', true]);
    const [kept] = heard.filter((entry) => Array.isArray(entry) && entry[0] === 'kept') as [
      [string, boolean, unknown],
    ];
    expect(kept[1]).toBe(true);
    expect(kept[2]).toBeInstanceOf(DOMException);
    expect((kept[2] as DOMException).name).toBe('TimeoutError');
  });
});
