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
});
