import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditSink } from '../audit/audit-event.js';
import { createMemoryAuditSink } from '../audit/memory-audit-sink.js';
import { HintgateError } from '../errors/hintgate-error.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../policy/policy-types.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../tool/presets.js';
import { AuditWriteError } from './audit-write-error.js';
import { createRuntime } from './create-runtime.js';
import type { RuntimeOptions } from './runtime-options.js';

// runtime.turn(): calls handed over one at a time, as a model streams them.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An in-memory store with read and write tools (resource `doc:{key}`) that take `ms`. */
const storeTools = (log: string[]) => {
  const docs = new Map<string, string>([
    ['a', 'old a'],
    ['b', 'old b'],
  ]);
  return [
    defineTool({
      name: 'read',
      description: 'Reads a document.',
      annotations: READ_ONLY,
      inputSchema: z.object({ key: z.string(), ms: z.number().default(0) }),
      resources: ['doc:{key}'],
      execute: async ({ key, ms }) => {
        log.push(`read ${key}`);
        await sleep(ms);
        return docs.get(key) ?? '';
      },
    }),
    defineTool({
      name: 'write',
      description: 'Writes a document.',
      annotations: WRITE,
      inputSchema: z.object({ key: z.string(), text: z.string(), ms: z.number().default(0) }),
      resources: ['doc:{key}'],
      execute: async ({ key, text, ms }) => {
        log.push(`write ${key} start`);
        await sleep(ms);
        docs.set(key, text);
        log.push(`write ${key} end`);
        return 'written';
      },
    }),
  ];
};

const setup = (options: Partial<RuntimeOptions> = {}) => {
  const log: string[] = [];
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({
    tools: storeTools(log),
    mode: 'ask',
    auditSinks: [audit],
    ...options,
  });
  return { runtime, log, audit };
};

const read = (id: string, key: string, ms = 0) => ({ id, name: 'read', arguments: { key, ms } });
const write = (id: string, key: string, text: string, ms = 0) => ({
  id,
  name: 'write',
  arguments: { key, text, ms },
});
const textOf = (result: { content: ReadonlyArray<{ type: string }> } | undefined): string =>
  (result?.content[0] as { text?: string } | undefined)?.text ?? '';

/** An approver that answers `answer` after `ms` and keeps what it was asked. */
const recording = (answer: ApprovalAnswer, ms = 0) => {
  const asked: ApprovalRequest[] = [];
  const approver: Approver = async (request) => {
    asked.push(request);
    await sleep(ms);
    return answer;
  };
  return { approver, asked };
};

describe('runtime.turn', () => {
  it('keeps the order of calls handed over one by one over time: a read given after a slow write sees it', async () => {
    const { runtime, log } = setup({ mode: 'yolo' });
    const turn = runtime.turn();
    const written = turn.call(write('w', 'a', 'new a', 30));
    await sleep(5);
    const other = turn.call(read('rb', 'b'));
    await sleep(5);
    const readBack = turn.call(read('ra', 'a'));
    expect(textOf(await other)).toBe('old b');
    expect(textOf(await readBack)).toBe('new a');
    expect((await written).status).toBe('ok');
    const results = await turn.end();
    expect(results.map((result) => result.id)).toEqual(['w', 'rb', 'ra']);
    // The read of b did not wait for the write of a; the read of a did.
    expect(log).toEqual(['write a start', 'read b', 'write a end', 'read a']);
  });

  it('gives each call its result as soon as it ends, before slower calls of the turn', async () => {
    const { runtime, audit } = setup({ mode: 'yolo' });
    const turn = runtime.turn();
    const slow = turn.call(read('slow', 'a', 200));
    const fast = turn.call(read('fast', 'b'));
    const first = await Promise.race([slow.then(() => 'slow'), fast.then(() => 'fast')]);
    expect(first).toBe('fast');
    // Its events are stored by then, the slow call's end not yet.
    expect(audit.events.map((event) => `${event.type}:${event.callId}`)).toContain(
      'call.succeeded:fast',
    );
    expect(audit.events.map((event) => `${event.type}:${event.callId}`)).not.toContain(
      'call.succeeded:slow',
    );
    expect((await turn.end()).map((result) => result.status)).toEqual(['ok', 'ok']);
    expect(audit.events.every((event) => event.batchId === turn.id)).toBe(true);
  });

  it('holds a write that asks in its place: a later read of it waits, a read of another key does not', async () => {
    const { runtime, log } = setup({ approvalTimeoutMs: 10_000 });
    let answer: (value: ApprovalAnswer) => void = () => {};
    const approver: Approver = () =>
      new Promise((resolve) => {
        answer = resolve;
      });
    const turn = runtime.turn({ approver });
    const written = turn.call(write('w', 'a', 'new a'));
    await sleep(5);
    const readA = turn.call(read('ra', 'a'));
    const readB = turn.call(read('rb', 'b'));
    expect(textOf(await readB)).toBe('old b');
    expect(log).toEqual(['read b']);
    answer({ decision: 'allow' });
    expect(textOf(await readA)).toBe('new a');
    expect((await written).status).toBe('ok');
    expect(log).toEqual(['read b', 'write a start', 'write a end', 'read a']);
    await turn.end();
  });

  it('puts asks of calls given in the same turn of the event loop to the person together, later ones apart', async () => {
    const { runtime } = setup();
    const { approver, asked } = recording({ decision: 'allow' });
    const turn = runtime.turn({ approver });
    const together = [turn.call(write('w1', 'a', '1')), turn.call(write('w2', 'b', '2'))];
    await Promise.all(together);
    await turn.call(write('w3', 'c', '3'));
    expect(asked.map((request) => [request.callId, request.position, request.total])).toEqual([
      ['w1', 1, 2],
      ['w2', 2, 2],
      ['w3', 1, 1],
    ]);
    await turn.end();
  });

  it('resolves end() with every result in call order, the same promise twice, and refuses calls after it', async () => {
    const { runtime } = setup({ mode: 'yolo' });
    const turn = runtime.turn();
    void turn.call(read('r1', 'a', 20));
    void turn.call({ id: 'x', name: 'missing' });
    void turn.call(read('r2', 'b'));
    const ended = turn.end();
    expect(turn.end()).toBe(ended);
    const results = await ended;
    expect(results.map((result) => [result.id, result.status])).toEqual([
      ['r1', 'ok'],
      ['x', 'error'],
      ['r2', 'ok'],
    ]);
    await expect(turn.call(read('r3', 'a'))).rejects.toMatchObject({
      code: 'invalid_calls',
      message: expect.stringContaining('this turn has ended'),
    });
  });

  it('rejects a malformed call, a reused id and bad options with what to fix, and runs nothing for them', async () => {
    const { runtime, log } = setup({ mode: 'yolo' });
    const turn = runtime.turn();
    await expect(turn.call({ id: '', name: 'read' })).rejects.toThrow(
      'call(toolCall).id must be a non-empty string',
    );
    await turn.call(read('r', 'a'));
    await expect(turn.call(read('r', 'b'))).rejects.toThrow('the id "r" was used before');
    await expect(
      turn.call(read('s', 'b'), { signal: 'stop' as unknown as AbortSignal }),
    ).rejects.toThrow('call: signal must be an AbortSignal.');
    await expect(
      turn.call(read('t', 'b'), { approval: { decision: 'maybe' } as unknown as ApprovalAnswer }),
    ).rejects.toThrow(`call: approval.decision must be 'allow' or 'deny', not "maybe".`);
    expect(() => runtime.turn({ session: 3 as unknown as string })).toThrow(
      'turn: session must be a string, null or absent.',
    );
    expect(log).toEqual(['read a']);
    expect((await turn.end()).map((result) => result.id)).toEqual(['r']);
  });

  it('cancels one call with its own signal while it waits for approval: it leaves the queue, the read behind it goes on', async () => {
    const { runtime, log } = setup({ approvalTimeoutMs: 10_000 });
    const never: Approver = () => new Promise(() => {});
    const turn = runtime.turn({ approver: never });
    const controller = new AbortController();
    const written = turn.call(write('w', 'a', 'new a'), { signal: controller.signal });
    const readA = turn.call(read('ra', 'a'));
    await sleep(10);
    expect(log).toEqual([]);
    controller.abort();
    expect(await written).toMatchObject({ status: 'cancelled', attempts: 0 });
    expect(textOf(await readA)).toBe('old a');
    // The rest of the turn goes on.
    expect((await turn.call(read('rb', 'b'))).status).toBe('ok');
    expect((await turn.end()).map((result) => result.status)).toEqual(['cancelled', 'ok', 'ok']);
  });

  it('cancels every call of the turn with the turn signal: queued, waiting for approval, running', async () => {
    const { runtime, log } = setup({ approvalTimeoutMs: 10_000 });
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const approver: Approver = (_request, { signal }) => {
      seen = signal;
      return new Promise(() => {});
    };
    const turn = runtime.turn({ approver, signal: controller.signal });
    void turn.call(read('running', 'b', 10_000));
    void turn.call(write('asking', 'a', 'new a'));
    void turn.call(read('queued', 'a'));
    while (seen === undefined) await sleep(5);
    controller.abort();
    const results = await turn.end();
    expect(results.map((result) => result.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(results[0]?.attempts).toBe(1);
    expect(seen.aborted).toBe(true);
    expect(log).toEqual(['read b']);
  });

  it('cancels a call waiting for approval when the runtime closes, and takes no more calls', async () => {
    const { runtime, audit } = setup({ approvalTimeoutMs: 10_000 });
    let seen: AbortSignal | undefined;
    const approver: Approver = (_request, { signal }) => {
      seen = signal;
      return new Promise(() => {});
    };
    const turn = runtime.turn({ approver });
    const written = turn.call(write('w', 'a', 'new a'));
    while (seen === undefined) await sleep(5);
    await runtime.close();
    expect(await written).toMatchObject({ status: 'cancelled', attempts: 0 });
    expect((await written).error?.message).toContain('the runtime was closed');
    expect(seen.aborted).toBe(true);
    expect(audit.events.map((event) => event.type)).toEqual([
      'approval.requested',
      'approval.denied',
      'call.failed',
    ]);
    await expect(turn.call(read('r', 'a'))).rejects.toMatchObject({ code: 'runtime_closed' });
    expect(() => runtime.turn()).toThrow(HintgateError);
  });

  it('ends a call denied when its approval times out, with the reason', async () => {
    const { runtime } = setup({ approvalTimeoutMs: 30 });
    const turn = runtime.turn({ approver: () => new Promise(() => {}) });
    const written = turn.call(write('w', 'a', 'new a'));
    const readA = turn.call(read('ra', 'a'));
    expect(await written).toMatchObject({ status: 'denied' });
    expect((await written).error?.message).toContain('no answer within 30 ms');
    expect(textOf(await readA)).toBe('old a');
    await turn.end();
  });

  it('rejects a call and end() with AuditWriteError carrying the results when a sink fails', async () => {
    const failing: AuditSink = { write: () => Promise.reject(new Error('disk full')) };
    const { runtime } = setup({ mode: 'yolo', auditSinks: [failing] });
    const turn = runtime.turn();
    const call = turn.call(read('r', 'a'));
    const error = await call.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AuditWriteError);
    expect((error as AuditWriteError).results.map((result) => result.status)).toEqual(['ok']);
    await expect(turn.end()).rejects.toMatchObject({
      name: 'AuditWriteError',
      message: expect.stringContaining('disk full'),
      results: [expect.objectContaining({ id: 'r', status: 'ok' })],
    });
  });
});

describe('approvals given with a call', () => {
  it('runs a call with an allow given beforehand without asking, and remembers it for the session as an approver’s answer', async () => {
    const { runtime, log, audit } = setup();
    const { approver, asked } = recording({ decision: 'deny' });
    const turn = runtime.turn({ approver });
    const result = await turn.call(write('w1', 'a', 'new a'), {
      approval: { decision: 'allow', remember: 'session', reason: 'approved in the chat UI' },
    });
    expect(result.status).toBe('ok');
    expect(asked).toEqual([]);
    const granted = audit.events.find((event) => event.type === 'approval.granted');
    expect(granted?.reason).toBe(
      'the user allowed it: approved in the chat UI; remembered for this session',
    );
    // Remembered: the same key runs again without an answer, in a batch of its own too.
    const [again] = await runtime.execute([write('w2', 'a', 'newer a')], { approver });
    expect(again?.status).toBe('ok');
    expect(asked).toEqual([]);
    expect(log).toEqual(['write a start', 'write a end', 'write a start', 'write a end']);
    await turn.end();
  });

  it('denies a call with a deny given beforehand, with its reason, and releases its place at once', async () => {
    const { runtime, log } = setup();
    const turn = runtime.turn();
    const written = turn.call(write('w', 'a', 'new a'), {
      approval: { decision: 'deny', reason: 'the user clicked Reject' },
    });
    const readA = turn.call(read('ra', 'a'));
    expect(await written).toMatchObject({ status: 'denied' });
    expect((await written).error?.message).toContain('the user denied it: the user clicked Reject');
    expect(textOf(await readA)).toBe('old a');
    expect(log).toEqual(['read a']);
    await turn.end();
  });

  it('never lets an answer given beforehand override a deny rule', async () => {
    const { runtime, log } = setup({
      rules: [{ tool: 'write', key: 'doc:a', decision: 'deny', reason: 'a is frozen' }],
    });
    const turn = runtime.turn();
    const written = await turn.call(write('w', 'a', 'new a'), {
      approval: { decision: 'allow', remember: 'always' },
    });
    expect(written.status).toBe('denied');
    expect(written.error?.message).toContain('a is frozen');
    expect(log).toEqual([]);
    await turn.end();
  });
});

describe('runtime.decide', () => {
  it('tells allow, ask and deny without running or asking, and allow once an approval is remembered', async () => {
    const { runtime, log } = setup({
      rules: [{ tool: 'write', key: 'doc:frozen', decision: 'deny', reason: 'frozen' }],
    });
    const { approver, asked } = recording({ decision: 'allow', remember: 'session' });
    expect(await runtime.decide(read('r', 'a'))).toMatchObject({
      id: 'r',
      decision: 'allow',
      class: 'read',
      origin: 'local',
      approvalKeys: ['doc:a'],
    });
    const ask = await runtime.decide(write('w', 'a', 'x'));
    expect(ask).toMatchObject({ decision: 'ask', class: 'write' });
    expect(ask.reason).toContain('mode ask');
    const deny = await runtime.decide(write('f', 'frozen', 'x'));
    expect(deny).toMatchObject({ decision: 'deny' });
    expect(deny.message).toContain('Do not retry it unchanged');
    expect(await runtime.decide({ id: 'u', name: 'nope' })).toMatchObject({
      decision: 'deny',
      error: { code: 'unknown_tool' },
    });
    expect(await runtime.decide(write('bad', 'a', 'x'), { session: null })).toMatchObject({
      decision: 'ask',
    });
    expect(log).toEqual([]);
    expect(asked).toEqual([]);

    await runtime.execute([write('w', 'a', 'x')], { approver });
    expect(await runtime.decide(write('w', 'a', 'y'))).toMatchObject({
      decision: 'allow',
      reason: expect.stringContaining('approved earlier in this session'),
    });
    // Another session remembers nothing.
    expect(await runtime.decide(write('w', 'a', 'y'), { session: 'other' })).toMatchObject({
      decision: 'ask',
    });
    await expect(runtime.decide({ id: 3 } as never)).rejects.toThrow(
      'decide(call).id must be a non-empty string',
    );
  });
});
