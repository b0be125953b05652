import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../audit/memory-audit-sink.js';
import type { ApprovalAnswer, ApprovalRequest } from '../policy/policy-types.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import type { RuntimeOptions } from './runtime-options.js';

// The order of conflicting calls holds while one of them waits for a person: a write that
// asks keeps its place in the lock queue, so a read of the same file sent after it waits
// for it (and sees what it wrote), while calls that do not conflict with it go on.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-approval-order-'));
  await writeFile(join(dir, 'o.txt'), 'OLD');
  await writeFile(join(dir, 'p.txt'), 'P');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** read_file and write_file on real files of `dir`, logging when each starts and ends. */
const fileTools = (log: string[]) => [
  defineTool({
    name: 'read_file',
    description: 'Reads a file.',
    annotations: READ_ONLY,
    inputSchema: z.object({ path: z.string() }),
    resources: ['file:{path}'],
    execute: async ({ path }) => {
      log.push(`read ${path}`);
      return readFile(join(dir, path), 'utf8');
    },
  }),
  defineTool({
    name: 'write_file',
    description: 'Writes a file.',
    annotations: WRITE,
    inputSchema: z.object({ path: z.string(), text: z.string() }),
    resources: ['file:{path}'],
    execute: async ({ path, text }) => {
      log.push(`write ${path} start`);
      await writeFile(join(dir, path), text);
      log.push(`write ${path} end`);
      return 'written';
    },
  }),
];

const write = (id: string, path: string, text: string) => ({
  id,
  name: 'write_file',
  arguments: { path, text },
});
const read = (id: string, path: string) => ({ id, name: 'read_file', arguments: { path } });
const textOf = (result: { content: ReadonlyArray<{ type: string }> } | undefined): string =>
  (result?.content[0] as { text?: string } | undefined)?.text ?? '';

/** A runtime in mode `ask` (writes ask, reads run) over the file tools. */
const setup = (options: Partial<RuntimeOptions> = {}) => {
  const log: string[] = [];
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({
    tools: fileTools(log),
    mode: 'ask',
    auditSinks: [audit],
    ...options,
  });
  return { runtime, log, audit };
};

/** An approver that answers `answer` after `ms`, logging when it is asked and answers. */
const slowApprover = (log: string[], ms: number, answer: ApprovalAnswer) => {
  const asked: ApprovalRequest[] = [];
  const approver = async (request: ApprovalRequest) => {
    asked.push(request);
    log.push(`asked ${request.callId}`);
    await sleep(ms);
    log.push(`answered ${request.callId}`);
    return answer;
  };
  return { approver, asked };
};

describe('order while an approval is pending', () => {
  it('[write(o) that asks, read(o)] as two concurrent requests: the read waits for the approval and the write, and sees NEW', async () => {
    const { runtime, log } = setup();
    const { approver } = slowApprover(log, 500, { decision: 'allow' });
    const [[written], [readBack]] = await Promise.all([
      runtime.execute([write('w', 'o.txt', 'NEW')], { approver }),
      runtime.execute([read('r', 'o.txt')], { approver }),
    ]);
    expect(written?.status).toBe('ok');
    expect(readBack?.status).toBe('ok');
    expect(textOf(readBack)).toBe('NEW');
    expect(log).toEqual([
      'asked w',
      'answered w',
      'write o.txt start',
      'write o.txt end',
      'read o.txt',
    ]);
    await runtime.close();
  });

  it('lets the read go on as soon as the write is denied, and it sees OLD', async () => {
    const { runtime, log, audit } = setup();
    const { approver } = slowApprover(log, 100, { decision: 'deny', reason: 'not now' });
    const [[written], [readBack]] = await Promise.all([
      runtime.execute([write('w', 'o.txt', 'NEW')], { approver }),
      runtime.execute([read('r', 'o.txt')], { approver }),
    ]);
    expect(written).toMatchObject({ status: 'denied', attempts: 0 });
    expect(written?.error?.message).toContain('the user denied it: not now');
    expect(textOf(readBack)).toBe('OLD');
    expect(log).toEqual(['asked w', 'answered w', 'read o.txt']);
    // The read started only after the denial: it held its place behind the write until then.
    const types = audit.events.map((event) => `${event.type}:${event.callId}`);
    expect(types.indexOf('approval.denied:w')).toBeLessThan(types.indexOf('call.started:r'));
    await runtime.close();
  });

  it('runs a read of another file while the write waits for the person', async () => {
    const { runtime, log } = setup({ approvalTimeoutMs: 10_000 });
    let otherRead: Promise<unknown> = Promise.resolve();
    // The person answers only once the read of p.txt is done: it must not wait for them.
    const approver = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
      log.push(`asked ${request.callId}`);
      await otherRead;
      return { decision: 'allow' };
    };
    const pending = runtime.execute([write('w', 'o.txt', 'NEW')], { approver });
    otherRead = runtime.execute([read('r', 'p.txt')], { approver });
    const [readBack] = (await otherRead) as Awaited<typeof pending>;
    expect(textOf(readBack)).toBe('P');
    const [written] = await pending;
    expect(written?.status).toBe('ok');
    expect(log.indexOf('read p.txt')).toBeLessThan(log.indexOf('write o.txt start'));
    await runtime.close();
  });

  it('inside one batch [WRITE(o) asks, READ(p), READ(o)]: READ(p) runs while the person decides, READ(o) after the write', async () => {
    const { runtime, log } = setup({ approvalTimeoutMs: 10_000 });
    const approver = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
      log.push(`asked ${request.callId}`);
      while (!log.includes('read p.txt')) await sleep(5);
      return { decision: 'allow' };
    };
    const results = await runtime.execute(
      [write('w', 'o.txt', 'NEW'), read('rp', 'p.txt'), read('ro', 'o.txt')],
      { approver },
    );
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok', 'ok']);
    expect(textOf(results[2])).toBe('NEW');
    expect(log.indexOf('read p.txt')).toBeLessThan(log.indexOf('write o.txt start'));
    expect(log.slice(-3)).toEqual(['write o.txt start', 'write o.txt end', 'read o.txt']);
  });

  it('still puts the approvals of one batch to the person together, and runs none of those calls before the answers', async () => {
    const { runtime, log } = setup();
    const { approver, asked } = slowApprover(log, 20, { decision: 'allow' });
    const results = await runtime.execute(
      [write('w1', 'o.txt', 'ONE'), read('r', 'p.txt'), write('w2', 'q.txt', 'TWO')],
      { approver },
    );
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok', 'ok']);
    expect(asked.map((request) => [request.callId, request.position, request.total])).toEqual([
      ['w1', 1, 2],
      ['w2', 2, 2],
    ]);
    const lastAnswer = log.indexOf('answered w2');
    expect(log.indexOf('write o.txt start')).toBeGreaterThan(lastAnswer);
    expect(log.indexOf('write q.txt start')).toBeGreaterThan(lastAnswer);
  });

  it('ends a write cancelled while it waits for approval, and lets the read behind it go on', async () => {
    const { runtime, log } = setup({ approvalTimeoutMs: 10_000 });
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const approver = (_request: ApprovalRequest, { signal }: { signal: AbortSignal }) => {
      seen = signal;
      return new Promise<ApprovalAnswer>(() => {});
    };
    const pending = runtime.execute([write('w', 'o.txt', 'NEW')], {
      approver,
      signal: controller.signal,
    });
    const readBack = runtime.execute([read('r', 'o.txt')], { approver });
    while (seen === undefined) await sleep(5);
    expect(log).toEqual([]);
    controller.abort();
    const [written] = await pending;
    expect(written).toMatchObject({ status: 'cancelled', attempts: 0 });
    expect(written?.error?.message).toContain('while it waited for approval');
    expect(seen.aborted).toBe(true);
    expect(textOf((await readBack)[0])).toBe('OLD');
    await runtime.close();
  });

  it('ends a write denied when its approval times out, with the reason, and the read behind it goes on', async () => {
    const { runtime } = setup({ approvalTimeoutMs: 50 });
    const approver = () => new Promise<ApprovalAnswer>(() => {});
    const [[written], [readBack]] = await Promise.all([
      runtime.execute([write('w', 'o.txt', 'NEW')], { approver }),
      runtime.execute([read('r', 'o.txt')], { approver }),
    ]);
    expect(written?.status).toBe('denied');
    expect(written?.error?.message).toContain('no answer within 50 ms');
    expect(textOf(readBack)).toBe('OLD');
    await runtime.close();
  });

  it('cancels a call waiting for approval when the runtime closes, and says why', async () => {
    const { runtime, audit } = setup({ approvalTimeoutMs: 10_000 });
    let seen: AbortSignal | undefined;
    const approver = (_request: ApprovalRequest, { signal }: { signal: AbortSignal }) => {
      seen = signal;
      return new Promise<ApprovalAnswer>(() => {});
    };
    const pending = runtime.execute([write('w', 'o.txt', 'NEW')], { approver });
    while (seen === undefined) await sleep(5);
    await runtime.close();
    const [written] = await pending;
    expect(written).toMatchObject({ status: 'cancelled', attempts: 0 });
    expect(written?.error?.message).toContain('the runtime was closed');
    expect(seen.aborted).toBe(true);
    expect(audit.events.map((event) => event.type)).toEqual([
      'approval.requested',
      'approval.denied',
      'call.failed',
    ]);
    expect(await readFile(join(dir, 'o.txt'), 'utf8')).toBe('OLD');
  });

  it('admits in arrival order even when the earlier call validates asynchronously', async () => {
    const log: string[] = [];
    const slowWrite = defineTool({
      name: 'slow_write',
      description: 'Writes a file; its schema checks asynchronously.',
      annotations: WRITE,
      inputSchema: z.object({ path: z.string(), text: z.string() }).refine(async () => {
        await sleep(30);
        return true;
      }),
      resources: ['file:{path}'],
      execute: async ({ path, text }) => {
        await writeFile(join(dir, path), text);
        log.push('slow write');
        return 'written';
      },
    });
    const runtime = createRuntime({ tools: [...fileTools(log), slowWrite], mode: 'yolo' });
    const [, [readBack]] = await Promise.all([
      runtime.execute([{ id: 'w', name: 'slow_write', arguments: { path: 'o.txt', text: 'NEW' } }]),
      runtime.execute([read('r', 'o.txt')]),
    ]);
    expect(textOf(readBack)).toBe('NEW');
    expect(log).toEqual(['slow write', 'read o.txt']);
  });
});
