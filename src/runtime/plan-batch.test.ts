import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';

/** A Standard Schema of `{ key: string }` that validates on a later turn of the event loop. */
const slowKeySchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'test-slow',
    validate: (value: unknown) =>
      new Promise<{ value: unknown } | { issues: { message: string }[] }>((resolve) =>
        setTimeout(() => {
          const key = (value as { key?: unknown } | null)?.key;
          resolve(typeof key === 'string' ? { value } : { issues: [{ message: 'key: required' }] });
        }, 5),
      ),
    jsonSchema: {
      input: () => ({ type: 'object', properties: { key: { type: 'string' } }, required: ['key'] }),
      output: () => ({
        type: 'object',
        properties: { key: { type: 'string' } },
        required: ['key'],
      }),
    },
  },
};

const tools = [
  defineTool({
    name: 'slow_write',
    description: 'Writes an item; its arguments validate asynchronously.',
    annotations: WRITE,
    inputSchema: slowKeySchema,
    resources: ['item:{key}'],
    execute: () => 'written',
  }),
  defineTool({
    name: 'read',
    description: 'Reads an item.',
    annotations: READ_ONLY,
    inputSchema: z.object({ key: z.string() }),
    resources: ['item:{key}'],
    execute: () => 'read',
  }),
];

describe('plan: calls that prepare asynchronously', () => {
  it('keeps call order and the waits when some calls validate later than others', async () => {
    const runtime = createRuntime({ tools, mode: 'yolo' });
    const plan = await runtime.plan([
      { id: 'r1', name: 'read', arguments: { key: 'a' } },
      { id: 'w1', name: 'slow_write', arguments: { key: 'a' } },
      { id: 'r2', name: 'read', arguments: { key: 'a' } },
      { id: 'bad', name: 'slow_write', arguments: {} },
      { id: 'w2', name: 'slow_write', arguments: { key: 'a' } },
      { id: 'r3', name: 'read', arguments: { key: 'b' } },
    ]);
    await runtime.close();
    expect(plan.map((entry) => entry.id)).toEqual(['r1', 'w1', 'r2', 'bad', 'w2', 'r3']);
    expect(plan.map((entry) => entry.runnable)).toEqual([true, true, true, false, true, true]);
    // w2: the latest write of item:a, and the read after it.
    expect(plan.map((entry) => entry.waitsFor)).toEqual([[], ['r1'], ['w1'], [], ['w1', 'r2'], []]);
    expect(plan[3]).toMatchObject({ error: { code: 'invalid_arguments' } });
  });
});
