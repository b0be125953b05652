import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../policy/index.js';
import { ConsoleInbox } from './console-inbox.js';

const request = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  callId: 'c1',
  tool: { name: 'deploy', description: 'Deploys.' },
  origin: 'ops',
  trusted: false,
  arguments: { target: 'prod', apiToken: 'hunter2' },
  class: 'destructive',
  claimed: { destructiveHint: false },
  effective: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  approvalKeys: ['deploy:prod'],
  reason: 'mode ask asks',
  position: 1,
  total: 1,
  remember: ['once', 'session'],
  ...overrides,
});

const ask = (inbox: ConsoleInbox, req = request(), signal = new AbortController().signal) =>
  Promise.resolve(inbox.approver(req, { signal }));

describe('ConsoleInbox', () => {
  it('shows a request with redacted arguments and what each offered choice remembers', () => {
    const inbox = new ConsoleInbox({ approvalsFile: '/p/.hintgate/approvals.json' });
    void ask(inbox);
    const [item] = inbox.pending();
    expect(item?.arguments).toEqual({ target: 'prod', apiToken: '[redacted]' });
    expect(item?.keys).toEqual(['deploy:prod — needs approval']);
    expect(item?.choices.map((choice) => choice.remember)).toEqual(['once', 'session']);
    expect(item?.choices[1]?.remembers).toContain('from the same client connection');
    void ask(inbox, request({ remember: ['once', 'session', 'always'] }));
    expect(inbox.pending()[1]?.choices[2]?.remembers).toContain(
      'written to /p/.hintgate/approvals.json',
    );
  });

  it('answers with who chose, narrowing a scope that was not offered', async () => {
    const inbox = new ConsoleInbox();
    const answer = ask(inbox);
    const id = inbox.pending()[0]?.id ?? '';
    expect(inbox.answer(id, { decision: 'allow', remember: 'always' }, 'console session 1')).toBe(
      true,
    );
    await expect(answer).resolves.toEqual({
      decision: 'allow',
      remember: 'session',
      reason: 'approved in the console',
      answeredBy: { channel: 'console', who: 'console session 1' },
    });
    expect(inbox.pending()).toEqual([]);
    expect(inbox.answer(id, { decision: 'deny' }, 'x')).toBe(false);
  });

  it('keeps a typed reason as one clean text', async () => {
    const inbox = new ConsoleInbox();
    const answer = ask(inbox);
    const id = inbox.pending()[0]?.id ?? '';
    inbox.answer(
      id,
      { decision: 'deny', reason: ` no\u0007 \u001b[31mred${'x'.repeat(600)}` },
      'w',
    );
    const { reason } = await answer;
    expect(reason?.startsWith('no [31mred')).toBe(true);
    expect(reason?.length).toBeLessThanOrEqual(500);
  });

  it('withdraws a request when the wait ends elsewhere, and tells the pages', async () => {
    const inbox = new ConsoleInbox();
    let changes = 0;
    inbox.onChange(() => {
      changes += 1;
    });
    const controller = new AbortController();
    const answer = ask(inbox, request(), controller.signal);
    expect(inbox.pending()).toHaveLength(1);
    controller.abort(new Error('answered elsewhere'));
    await expect(answer).resolves.toMatchObject({ decision: 'deny', asked: false });
    expect(inbox.pending()).toEqual([]);
    expect(changes).toBe(2);
  });

  it('cannot ask anyone once closed', async () => {
    const inbox = new ConsoleInbox();
    const waiting = ask(inbox);
    inbox.close();
    await expect(waiting).resolves.toMatchObject({ decision: 'deny', asked: false });
    await expect(ask(inbox)).resolves.toMatchObject({ decision: 'deny', asked: false });
  });
});
