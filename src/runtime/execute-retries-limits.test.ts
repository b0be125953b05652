import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFakeClock } from '../testing/index.js';
import type { ToolAnnotations } from '../tool/annotations.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import { RetryableError } from './retryable-error.js';
import { type Mark, startTimes } from './scenario.test-helpers.js';

/** The fake clock of the test under way: `beforeEach` makes a new one. */
let clock = createFakeClock();

/** A tool that fails with `failure()` on its first `failures` invocations, then succeeds. */
const flaky = (
  name: string,
  annotations: ToolAnnotations,
  failures: number,
  failure: () => unknown,
  at: number[],
) =>
  defineTool({
    name,
    description: 'Fails a few times',
    inputSchema: z.object({}),
    annotations,
    execute: () => {
      at.push(clock.now());
      if (at.length <= failures) throw failure();
      return 'finally';
    },
  });

describe('execute: retries', () => {
  beforeEach(() => {
    clock = createFakeClock();
  });

  const runOne = async (tool: ReturnType<typeof flaky>, random = () => 1) => {
    const runtime = createRuntime({ mode: 'yolo', tools: [tool], clock: clock, random });
    const done = runtime.execute([{ id: '1', name: tool.name }]);
    await clock.runAll();
    const [result] = await done;
    return result;
  };

  it('retries a read-only tool on RetryableError with exponential backoff', async () => {
    const at: number[] = [];
    const result = await runOne(flaky('read', READ_ONLY, 2, () => new RetryableError('503'), at));
    expect(result).toMatchObject({ status: 'ok', attempts: 3 });
    // random() = 1: delays are the full backoff, 100 then 200 ms.
    expect(at).toEqual([0, 100, 300]);
  });

  it('applies jitter from the injected random source', async () => {
    const at: number[] = [];
    await runOne(
      flaky('read', READ_ONLY, 2, () => new RetryableError('503'), at),
      () => 0.5,
    );
    expect(at).toEqual([0, 50, 150]);
  });

  it('retries an idempotent write, and any error that says retryable: true', async () => {
    const at: number[] = [];
    const error = () => Object.assign(new Error('reset'), { retryable: true });
    const result = await runOne(flaky('save', WRITE, 1, error, at));
    expect(result).toMatchObject({ status: 'ok', attempts: 2 });
  });

  it('honours retryAfterMs of a failure', async () => {
    const at: number[] = [];
    await runOne(
      flaky('read', READ_ONLY, 1, () => new RetryableError('429', { retryAfterMs: 1_000 }), at),
    );
    expect(at).toEqual([0, 1_000]);
  });

  it('never retries a non-idempotent tool, even on a retryable failure', async () => {
    const at: number[] = [];
    const result = await runOne(flaky('drop', DESTRUCTIVE, 1, () => new RetryableError('503'), at));
    expect(result).toMatchObject({ status: 'error', attempts: 1, error: { code: 'tool_error' } });
  });

  it('never retries a failure that is not marked retryable', async () => {
    const at: number[] = [];
    const result = await runOne(flaky('read', READ_ONLY, 1, () => new Error('bad path'), at));
    expect(result).toMatchObject({ status: 'error', attempts: 1 });
  });

  it('stops after the configured attempts and reports the last failure', async () => {
    const at: number[] = [];
    const tool = defineTool({
      name: 'read',
      description: 'Always fails',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      retry: { attempts: 4, baseDelayMs: 10 },
      execute: () => {
        at.push(clock.now());
        throw new RetryableError(`failure ${at.length}`);
      },
    });
    const result = await runOne(tool);
    expect(result).toMatchObject({
      attempts: 4,
      error: { message: 'Tool "read" failed: failure 4' },
    });
    expect(at).toEqual([0, 10, 30, 70]);
  });

  it('does not start a retry that would end past the timeout', async () => {
    const at: number[] = [];
    const tool = defineTool({
      name: 'read',
      description: 'Slow to recover',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      timeoutMs: 250,
      retry: { attempts: 10, baseDelayMs: 100 },
      execute: () => {
        at.push(clock.now());
        throw new RetryableError('503');
      },
    });
    const result = await runOne(tool);
    expect(at).toEqual([0, 100]);
    expect(result).toMatchObject({ status: 'error', attempts: 2 });
  });
});

describe('execute: rate limits', () => {
  let marks: Mark[];
  beforeEach(() => {
    clock = createFakeClock();
    marks = [];
  });

  const limited = (
    rateLimit: { max: number; windowMs: number; maxWaitMs?: number },
    fail = false,
  ) =>
    defineTool({
      name: 'lookup',
      description: 'Rate-limited read',
      inputSchema: z.object({ fail: z.boolean().default(false) }),
      annotations: READ_ONLY,
      rateLimit,
      execute: (args, context) => {
        marks.push({ id: context.callId, phase: 'start', at: clock.now() });
        if (args.fail || fail) throw new Error('upstream said no');
        return 'ok';
      },
    });

  const run = async (
    tool: ReturnType<typeof limited>,
    calls: Array<{ id: string; fail?: boolean }>,
  ) => {
    const runtime = createRuntime({ mode: 'yolo', tools: [tool], clock: clock });
    const done = runtime.execute(
      calls.map((c) => ({ id: c.id, name: 'lookup', arguments: { fail: c.fail ?? false } })),
    );
    await clock.runAll();
    return done;
  };

  it('makes calls over the limit wait for quota: [LOOKUP x3] at 2 per 100 ms', async () => {
    const results = await run(limited({ max: 2, windowMs: 100 }), [
      { id: 'a' },
      { id: 'b' },
      { id: 'c' },
    ]);
    expect(startTimes(marks)).toEqual({ a: 0, b: 0, c: 100 });
    expect(results[2]?.queuedMs).toBe(100);
  });

  it('hands quota back when a call fails (reserve, then roll back)', async () => {
    await run(limited({ max: 1, windowMs: 100 }), [
      { id: 'a', fail: true },
      { id: 'b' },
      { id: 'c' },
    ]);
    expect(startTimes(marks)).toEqual({ a: 0, b: 0, c: 100 });
  });

  it('ends a call rate_limited when quota would free up later than maxWaitMs', async () => {
    const results = await run(limited({ max: 1, windowMs: 60_000, maxWaitMs: 1_000 }), [
      { id: 'a' },
      { id: 'b' },
    ]);
    expect(results.map((r) => r.error?.code)).toEqual([undefined, 'rate_limited']);
    expect(results[1]?.error?.message).toMatch(/rate limit of 1 call\(s\) per 60000 ms/);
    expect(results[1]?.attempts).toBe(0);
  });

  it('keeps the limit across batches of one runtime', async () => {
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [limited({ max: 1, windowMs: 100, maxWaitMs: 0 })],
      clock,
    });
    const first = await runtime.execute([{ id: 'a', name: 'lookup' }]);
    const second = await runtime.execute([{ id: 'b', name: 'lookup' }]);
    expect(first[0]?.status).toBe('ok');
    expect(second[0]?.error?.code).toBe('rate_limited');
  });
});
