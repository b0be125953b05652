import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import type { ApprovalKeys } from '../tool/approval-keys.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE } from '../tool/presets.js';
import { createApprovalStore } from './approval-store.js';
import type { ApprovalAnswer, ApprovalRequest, Mode, PolicyRule } from './policy-types.js';

// Calls whose tool reports parts it could not understand (`approvalKey` returning
// `{ keys, opaque }`): no allow rule on keys and no remembered approval covers them, a rule
// on keys that denies or asks matches one that may hide a command, and the request says why.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Commands as the `run` tool reads them: `keys` with `opaque` parts, given per call. */
type Reading = ApprovalKeys & { readonly wait?: boolean };

const setup = async (options: {
  mode: Mode;
  rules?: PolicyRule[];
  answer?: ApprovalAnswer;
  approvalsFile?: string;
}) => {
  const readings = new Map<string, Reading>();
  const ran: string[] = [];
  const asked: ApprovalRequest[] = [];
  const run = defineTool({
    name: 'run',
    description: 'Runs a command line.',
    inputSchema: z.object({ line: z.string() }),
    annotations: DESTRUCTIVE,
    approvalKey: ({ line }) => {
      const reading = readings.get(line) ?? { keys: [line] };
      return reading.wait === true ? Promise.resolve(reading) : reading;
    },
    execute: ({ line }) => {
      ran.push(line);
      return 'done';
    },
  });
  const runtime = createRuntime({
    tools: [run],
    mode: options.mode,
    rules: options.rules ?? [],
    ...(options.approvalsFile === undefined
      ? {}
      : { approvals: createApprovalStore({ path: options.approvalsFile }) }),
    approver: (request) => {
      asked.push(request);
      return options.answer ?? { decision: 'deny' };
    },
  });
  const call = async (line: string) => {
    const [result] = await runtime.execute([{ id: 'c', name: 'run', arguments: { line } }]);
    return result;
  };
  return { readings, ran, asked, call, runtime };
};

const SUBSTITUTION = { reason: 'command substitution $(id)' };
const HIDDEN = { reason: 'sets PATH, which may change what programs run', hidesCommand: true };

describe('a call with parts its tool could not understand', () => {
  it('is not matched by an allow rule on keys, though every key matches; it asks and says why', async () => {
    const s = await setup({
      mode: 'allowlist',
      rules: [{ tool: 'run', key: '{git status,id}', decision: 'allow' }],
    });
    s.readings.set('git status $(id)', { keys: ['git status', 'id'], opaque: [SUBSTITUTION] });
    expect((await s.call('git status'))?.status).toBe('ok');
    expect((await s.call('git status $(id)'))?.status).toBe('denied');
    expect(s.asked).toHaveLength(1);
    const [request] = s.asked;
    expect(request?.reason).toContain('not fully understood (command substitution $(id))');
    expect(request?.opaque).toEqual([SUBSTITUTION]);
    expect(s.ran).toEqual(['git status']);
  });

  it('is still matched by an allow rule without a key, which looks at no argument', async () => {
    const s = await setup({ mode: 'allowlist', rules: [{ tool: 'run', decision: 'allow' }] });
    s.readings.set('x', { keys: ['x'], opaque: [SUBSTITUTION, HIDDEN] });
    expect((await s.call('x'))?.status).toBe('ok');
    expect(s.asked).toHaveLength(0);
  });

  it('is denied by a deny rule on keys when a part may hide a command, even in yolo', async () => {
    const s = await setup({
      mode: 'yolo',
      rules: [{ tool: 'run', key: 'git push*', decision: 'deny', reason: 'pushing is for people' }],
    });
    s.readings.set('hidden', { keys: ['git status'], opaque: [HIDDEN] });
    s.readings.set('asking', { keys: ['git status'], opaque: [SUBSTITUTION] });
    const denied = await s.call('hidden');
    expect(denied?.status).toBe('denied');
    expect(denied?.content[0]).toMatchObject({
      text: expect.stringContaining('it may run commands its keys do not name (sets PATH'),
    });
    // A part that asks but hides nothing is no business of a deny rule.
    expect((await s.call('asking'))?.status).toBe('ok');
    // And a rule whose key does not apply to the tool at all stays out of it.
    const other = await setup({
      mode: 'yolo',
      rules: [{ tool: 'other', key: 'git push*', decision: 'deny' }],
    });
    other.readings.set('hidden', { keys: ['git status'], opaque: [HIDDEN] });
    expect((await other.call('hidden'))?.status).toBe('ok');
  });

  it('is never covered by an approval remembered for the session, and offers only "once"', async () => {
    const s = await setup({
      mode: 'ask',
      answer: { decision: 'allow', remember: 'session' },
    });
    s.readings.set('git status $(id)', { keys: ['git status'], opaque: [SUBSTITUTION] });
    expect((await s.call('git status'))?.status).toBe('ok');
    expect((await s.call('git status'))?.status).toBe('ok');
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]?.remember).toEqual(['once', 'session']);

    // Same keys, but not understood: asked, and its "session" answer is not remembered.
    expect((await s.call('git status $(id)'))?.status).toBe('ok');
    expect(s.asked).toHaveLength(2);
    expect(s.asked[1]?.remember).toEqual(['once']);
    expect(s.asked[1]?.keyNotes).toEqual([
      { key: 'git status', covered: 'approved earlier in this session' },
    ]);
    expect((await s.call('git status $(id)'))?.status).toBe('ok');
    expect(s.asked).toHaveLength(3);
  });

  it('is never covered by an approval remembered for the project', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hintgate-opaque-'));
    dirs.push(dir);
    const approvalsFile = join(dir, 'approvals.json');
    const first = await setup({
      mode: 'ask',
      approvalsFile,
      answer: { decision: 'allow', remember: 'always' },
    });
    expect((await first.call('npm test'))?.status).toBe('ok');
    // A later runtime on the same file: the plain line is covered, the one with a part
    // that may hide a command is asked again, and can only be allowed once.
    const later = await setup({ mode: 'ask', approvalsFile });
    later.readings.set('npm test; $X', { keys: ['npm test'], opaque: [HIDDEN] });
    expect((await later.call('npm test'))?.status).toBe('ok');
    expect(later.asked).toHaveLength(0);
    expect((await later.call('npm test; $X'))?.status).toBe('denied');
    expect(later.asked).toHaveLength(1);
    expect(later.asked[0]?.remember).toEqual(['once']);
    expect(later.asked[0]?.keyNotes).toEqual([
      { key: 'npm test', covered: 'approved always for this project' },
    ]);
  });

  it('says per key what covers it: an allow rule, the session, or nothing', async () => {
    const s = await setup({
      mode: 'ask',
      rules: [{ tool: 'run', key: 'git status', decision: 'allow', reason: 'harmless' }],
    });
    s.readings.set('git status; rm x', { keys: ['git status', 'rm'] });
    await s.call('git status; rm x');
    expect(s.asked[0]?.keyNotes).toEqual([
      { key: 'git status', covered: expect.stringContaining('allowed by rule #1') },
      { key: 'rm' },
    ]);
    expect(s.asked[0]?.opaque).toEqual([]);
  });

  it('waits for an asynchronous approvalKey before it decides', async () => {
    const s = await setup({
      mode: 'allowlist',
      rules: [{ tool: 'run', key: 'npm test', decision: 'allow' }],
    });
    s.readings.set('later', { keys: ['npm test'], wait: true });
    s.readings.set('later $(id)', { keys: ['npm test'], opaque: [SUBSTITUTION], wait: true });
    expect((await s.call('later'))?.status).toBe('ok');
    expect((await s.call('later $(id)'))?.status).toBe('denied');
    expect(s.asked).toHaveLength(1);
  });
});
