import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest } from '../policy/policy-types.js';
import { defineTool } from '../tool/define-tool.js';
import type { ToolAnnotations } from '../tool/index.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import type { Runtime } from './runtime.js';
import type { ToolCall } from './tool-call.js';

// A batch of more than 1,024 calls arrives in parts while many of its calls wait (see
// `CallPipeline#arriveInParts`): these are the guarantees a single pass gives, kept.

/** Tools on `doc:{key}` that log `<id>` as they run; `hold` makes a run wait for `gate`. */
const docTools = (log: string[], gate?: Promise<void>) => {
  // Logs the call's id as it starts; with `hold`, its run then waits for `gate`.
  const run = ({ id, hold }: { id: string; hold?: boolean | undefined }) => {
    log.push(id);
    return hold ? (gate ?? Promise.resolve()).then(() => id) : id;
  };
  const inputSchema = z.object({ key: z.string(), id: z.string(), hold: z.boolean().optional() });
  const tool = (name: string, annotations: ToolAnnotations, description: string) =>
    defineTool({
      name,
      description,
      annotations,
      inputSchema,
      resources: ['doc:{key}'],
      execute: run,
    });
  return [
    tool('read', READ_ONLY, 'Reads a document.'),
    tool('write', WRITE, 'Writes a document.'),
    tool('remove', DESTRUCTIVE, 'Deletes a document.'),
  ];
};

const call = (name: string, id: string, key: string, hold?: boolean): ToolCall => ({
  id,
  name,
  arguments: { key, id, ...(hold === undefined ? {} : { hold }) },
});

const writes = (count: number, key: string, from = 0): ToolCall[] =>
  Array.from({ length: count }, (_, n) => call('write', `w${from + n}`, key));

/**
 * Executes `calls` and, once the batch's first calls ran (most of it has not arrived yet),
 * a turn's write `late` of key `k`; expects every call ok, then closes the runtime.
 */
const executeWithLateWrite = async (runtime: Runtime, calls: ToolCall[]): Promise<void> => {
  const batch = runtime.execute(calls);
  const turn = runtime.turn();
  const late = Promise.resolve().then(() => turn.call(call('write', 'late', 'k')));
  const [results, lateResult] = await Promise.all([batch, late]);
  await turn.end();
  await runtime.close();
  expect(results.every((result) => result.status === 'ok')).toBe(true);
  expect(lateResult.status).toBe('ok');
};

describe('execute: a batch of thousands of conflicting calls', () => {
  it('runs every call of one key in call order and answers in call order', async () => {
    const log: string[] = [];
    const runtime = createRuntime({ tools: docTools(log), mode: 'yolo' });
    const calls = writes(5000, 'k');
    const results = await runtime.execute(calls);
    await runtime.close();
    expect(results.map((result) => result.id)).toEqual(calls.map(({ id }) => id));
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    expect(log).toEqual(calls.map(({ id }) => id));
  });

  it("keeps its calls ahead of another turn's call that arrives while it waits to arrive", async () => {
    const log: string[] = [];
    const runtime = createRuntime({ tools: docTools(log), mode: 'yolo' });
    const calls = writes(3000, 'k');
    await executeWithLateWrite(runtime, calls);
    // A single pass puts `late` after all 3,000; arriving in parts must too.
    expect(log.indexOf('late')).toBe(3000);
  });

  it("keeps its calls ahead of another batch's that arrives while it waits to arrive", async () => {
    const log: string[] = [];
    const runtime = createRuntime({ tools: docTools(log), mode: 'yolo' });
    const calls = writes(3000, 'k');
    const batch = runtime.execute(calls);
    const late = Promise.resolve().then(() =>
      runtime.execute([call('write', 'late', 'k'), call('read', 'late read', 'other')]),
    );
    const [results, lateResults] = await Promise.all([batch, late]);
    await runtime.close();
    expect([...results, ...lateResults].every((result) => result.status === 'ok')).toBe(true);
    // The write of `k` runs after all 3,000; the read of another key conflicts with none.
    const writesOfK = log.filter((id) => id !== 'late read');
    expect(writesOfK).toEqual([...calls.map(({ id }) => id), 'late']);
  });

  it('runs a call that waited behind it for its place in the async context the call arrived in', async () => {
    const seen = new Map<string, string | undefined>();
    const store = new AsyncLocalStorage<string>();
    const record = defineTool({
      name: 'record',
      description: 'Records the async context it runs in.',
      annotations: WRITE,
      inputSchema: z.object({ key: z.string(), id: z.string() }),
      resources: ['doc:{key}'],
      execute: ({ id }) => {
        seen.set(id, store.getStore());
        return id;
      },
    });
    const runtime = createRuntime({ tools: [record], mode: 'yolo' });
    const calls = Array.from({ length: 3000 }, (_, n) => call('record', `w${n}`, 'k'));
    const batch = store.run('batch', () => runtime.execute(calls));
    const turn = runtime.turn();
    const late = store.run('turn', () =>
      Promise.resolve().then(() => turn.call(call('record', 'late', 'k'))),
    );
    await Promise.all([batch, late]);
    await turn.end();
    await runtime.close();
    expect(seen.get('w2999')).toBe('batch');
    expect(seen.get('late')).toBe('turn');
  });

  it('keeps call order through a call that prepares asynchronously after the batch paused', async () => {
    const log: string[] = [];
    const checked = defineTool({
      name: 'checked_write',
      description: 'Writes a document whose id is checked asynchronously.',
      annotations: WRITE,
      inputSchema: z.object({
        key: z.string(),
        id: z.string().refine(async (id) => id.length > 0),
      }),
      resources: ['doc:{key}'],
      execute: ({ id }) => {
        log.push(id);
        return id;
      },
    });
    const runtime = createRuntime({ tools: [...docTools(log), checked], mode: 'yolo' });
    const calls = [
      ...writes(2000, 'k'),
      call('checked_write', 'checked', 'k'),
      ...writes(1000, 'k', 2000),
    ];
    await executeWithLateWrite(runtime, calls);
    expect(log).toEqual([...calls.map(({ id }) => id), 'late']);
  });

  it('does not hold back a later call that conflicts with none of the waiting ones', async () => {
    const log: string[] = [];
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const runtime = createRuntime({ tools: docTools(log, gate), mode: 'yolo' });
    // The first write holds key `a`; 2,000 wait behind it; the read of `b` waits for none.
    const calls = [call('write', 'slow', 'a', true), ...writes(2000, 'a'), call('read', 'rb', 'b')];
    const batch = runtime.execute(calls);
    await vi.waitFor(() => expect(log).toContain('rb'), { timeout: 2000, interval: 5 });
    expect(log).toEqual(['slow', 'rb']);
    open();
    const results = await batch;
    await runtime.close();
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    expect(log.slice(2)).toEqual(writes(2000, 'a').map(({ id }) => id));
  });

  it('asks for every call of the batch that asks in one group, though thousands wait between', async () => {
    const log: string[] = [];
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const asked: string[] = [];
    const approver = async (request: ApprovalRequest) => {
      asked.push(`${request.callId} ${request.position} of ${request.total}`);
      open();
      return { decision: 'allow' as const };
    };
    const runtime = createRuntime({ tools: docTools(log, gate), mode: 'auto' });
    const calls = [
      call('write', 'slow', 'a', true),
      call('remove', 'r1', 'x'),
      ...writes(1500, 'a'),
      call('remove', 'r2', 'y'),
    ];
    const results = await runtime.execute(calls, { approver });
    await runtime.close();
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    expect(asked).toEqual(['r1 1 of 2', 'r2 2 of 2']);
  });

  it('ends every call cancelled when the batch is cancelled while most of it has not arrived', async () => {
    const log: string[] = [];
    const gate = new Promise<void>(() => {});
    const runtime = createRuntime({ tools: docTools(log, gate), mode: 'yolo' });
    const controller = new AbortController();
    const calls = [call('write', 'slow', 'a', true), ...writes(3000, 'a')];
    const batch = runtime.execute(calls, { signal: controller.signal });
    await vi.waitFor(() => expect(log).toEqual(['slow']), { timeout: 2000, interval: 5 });
    controller.abort();
    const results = await batch;
    await runtime.close();
    expect(results).toHaveLength(3001);
    expect(results.every((result) => result.status === 'cancelled')).toBe(true);
    expect(log).toEqual(['slow']);
  });
});

describe('execute: a batch of thousands of reads that conflict with nothing', () => {
  /** A read of `doc:{key}` that counts the runs under way; each ends after `pause`. */
  const countingRead = (pause: () => Promise<void>) => {
    const runs = { now: 0, most: 0 };
    const tool = defineTool({
      name: 'read',
      description: 'Reads a document.',
      annotations: READ_ONLY,
      inputSchema: z.object({ key: z.string(), id: z.string() }),
      resources: ['doc:{key}'],
      execute: async ({ id }) => {
        runs.now += 1;
        runs.most = Math.max(runs.most, runs.now);
        await pause();
        runs.now -= 1;
        return id;
      },
    });
    return { tool, runs };
  };
  const reads = (count: number): ToolCall[] =>
    Array.from({ length: count }, (_, n) => call('read', `r${n}`, `k${n % 50}`));

  it('keeps a few hundred of its quick reads under way at a time, not all of them', async () => {
    // Each read ends within the microtasks of its start: nothing waits on timers or I/O.
    const { tool, runs } = countingRead(() => Promise.resolve());
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const calls = reads(5000);
    const results = await runtime.execute(calls);
    await runtime.close();
    expect(results.map((result) => result.content)).toEqual(
      calls.map(({ id }) => [{ type: 'text', text: id }]),
    );
    expect(runs.most).toBeGreaterThan(1);
    expect(runs.most).toBeLessThanOrEqual(256);
  });

  it('still runs slow reads all at once, from the next turn of the event loop on', async () => {
    const { tool, runs } = countingRead(() => new Promise((resolve) => setTimeout(resolve, 50)));
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const results = await runtime.execute(reads(3000));
    await runtime.close();
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    expect(runs.most).toBe(3000);
  });
});
