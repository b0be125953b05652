import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import type { ToolCall } from './tool-call.js';

setFlagsFromString('--expose-gc');
/** A full collection, so that heap sizes count live objects only. */
const gc = runInNewContext('gc') as () => void;

const heapUsed = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

describe('execute: what a waiting call keeps alive', () => {
  it('keeps the state of a few hundred waiting calls while 10,000 reads wait for the one slot of their origin', async () => {
    const read = defineTool({
      name: 'read',
      description: 'Reads.',
      annotations: READ_ONLY,
      inputSchema: z.object({ n: z.number() }),
      execute: ({ n }) => `ok ${n}`,
    });
    const runtime = createRuntime({ tools: [read], mode: 'yolo', concurrency: { local: 1 } });
    const size = 10_000;
    const calls: ToolCall[] = Array.from({ length: size }, (_, n) => ({
      id: `c${n}`,
      name: 'read',
      arguments: { n },
    }));
    // Warm: the runtime's own state for the tool and origin is made before measuring.
    await runtime.execute(calls.slice(0, 10));
    const before = heapUsed();
    const batch = runtime.execute(calls);
    // None has run yet (the first runs after a turn of the microtask queue). The first
    // 256 calls arrived and wait; the others wait to arrive (`PartedArrival`), so
    // they cost only their place in the batch's results.
    const perCall = (heapUsed() - before) / size;
    const results = await batch;
    await runtime.close();
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    // A promise chain per waiting call (the grant's promise, a run promise, a release
    // promise, their reactions and closures) came to about 1,300 bytes; a waiting call's
    // own state (ticket, lock entry, pipeline entry) to about 740, when all of them
    // arrived at once. With 1,024 of them waiting at a time, 92 bytes per call of the
    // batch; with 256, 38.
    expect(perCall).toBeLessThan(60);
  });
});
