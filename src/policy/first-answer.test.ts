import { describe, expect, it } from 'vitest';
import { firstAnswer } from './first-answer.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from './policy-types.js';

const REQUEST: ApprovalRequest = {
  callId: 'c1',
  tool: { name: 'write_file', description: 'Writes a file.' },
  origin: 'files',
  trusted: false,
  arguments: { path: 'a.txt' },
  class: 'destructive',
  claimed: {},
  effective: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  approvalKeys: ['file:a.txt'],
  reason: 'mode ask asks',
  position: 1,
  total: 1,
  remember: ['once'],
};

const CANNOT: ApprovalAnswer = { decision: 'deny', reason: 'cannot ask', asked: false };

/** A channel that answers when told to, and records whether it was withdrawn. */
const manual = () => {
  let answer: (value: ApprovalAnswer) => void = () => {};
  const state = { asked: 0, withdrawn: undefined as unknown };
  const approver: Approver = (_request, { signal }) => {
    state.asked += 1;
    signal.addEventListener('abort', () => {
      state.withdrawn = signal.reason;
    });
    return new Promise<ApprovalAnswer>((resolve) => {
      answer = resolve;
    });
  };
  return { approver, state, answer: (value: ApprovalAnswer) => answer(value) };
};

const ask = (approver: Approver, signal = new AbortController().signal) =>
  Promise.resolve(approver(REQUEST, { signal }));

describe('firstAnswer', () => {
  it('takes the first answer of two channels and withdraws the other', async () => {
    const a = manual();
    const b = manual();
    const answer = ask(firstAnswer([a.approver, b.approver]));
    b.answer({ decision: 'allow', remember: 'session' });
    await expect(answer).resolves.toEqual({ decision: 'allow', remember: 'session' });
    expect(a.state.withdrawn).toBeInstanceOf(DOMException);
    expect((a.state.withdrawn as DOMException).message).toBe('answered elsewhere');
    a.answer({ decision: 'deny' });
  });

  it('waits for another channel while the first cannot ask anyone', async () => {
    const b = manual();
    const answer = ask(firstAnswer([async () => CANNOT, b.approver]));
    await new Promise((resolve) => setImmediate(resolve));
    b.answer({ decision: 'deny', reason: 'not now' });
    await expect(answer).resolves.toEqual({ decision: 'deny', reason: 'not now' });
  });

  it("gives the first channel's answer when no channel can ask anyone", async () => {
    const other: ApprovalAnswer = { decision: 'deny', reason: 'other', asked: false };
    await expect(ask(firstAnswer([() => CANNOT, async () => other]))).resolves.toBe(CANNOT);
    await expect(ask(firstAnswer([async () => CANNOT, () => other]))).resolves.toBe(CANNOT);
  });

  it('does not ask later channels when an earlier one answers at once', async () => {
    const b = manual();
    const at = { decision: 'allow' } as const;
    await expect(ask(firstAnswer([() => at, b.approver]))).resolves.toBe(at);
    expect(b.state.asked).toBe(0);
  });

  it('uses the unavailable test it is given', async () => {
    const b = manual();
    const pending: ApprovalAnswer = { decision: 'deny', reason: 'pending', asked: false };
    const approver = firstAnswer([() => pending, b.approver], {
      unavailable: (answer) => answer.reason === 'cannot ask',
    });
    await expect(ask(approver)).resolves.toBe(pending);
    expect(b.state.asked).toBe(0);
  });

  it('counts a failing channel as unavailable, and denies when every channel failed', async () => {
    const b = manual();
    const answer = ask(
      firstAnswer([
        () => {
          throw new Error('no terminal');
        },
        b.approver,
      ]),
    );
    b.answer({ decision: 'allow' });
    await expect(answer).resolves.toEqual({ decision: 'allow' });
    const denied = await ask(
      firstAnswer([
        () => {
          throw new Error('no terminal');
        },
        () => Promise.reject(new Error('console closed')),
      ]),
    );
    expect(denied.decision).toBe('deny');
    expect(denied.reason).toBe('no approval channel could answer: no terminal; console closed');
  });

  it("passes the caller's abort on to every channel", async () => {
    const a = manual();
    const b = manual();
    const controller = new AbortController();
    void ask(firstAnswer([a.approver, b.approver]), controller.signal);
    controller.abort(new Error('timed out'));
    expect((a.state.withdrawn as Error).message).toBe('timed out');
    expect((b.state.withdrawn as Error).message).toBe('timed out');
  });

  it('refuses an empty list or a non-function', () => {
    expect(() => firstAnswer([])).toThrow(/non-empty array/);
    expect(() => firstAnswer([() => CANNOT, 'x' as unknown as Approver])).toThrow(
      /channels\[1\] is not a function/,
    );
  });
});
