import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../policy/policy-types.js';
import { type ApprovalChannel, approverOf } from './approval-channel.js';
import { NO_APPROVAL_CHANNEL } from './approval-form.js';

const request = {
  callId: 'c1',
  tool: { name: 'remove', description: 'Removes.' },
  origin: 'local',
  trusted: true,
  arguments: { key: 'a' },
  class: 'destructive',
  claimed: {},
  effective: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  approvalKeys: ['a'],
} as unknown as ApprovalRequest;

/** A channel that answers when `answer` is called, and records its withdrawal. */
const pendingChannel = (name: ApprovalChannel['name']) => {
  const state: { withdrawn?: unknown; answer?: (decision: 'allow' | 'deny') => void } = {};
  const channel: ApprovalChannel = {
    name,
    canAsk: () => true,
    ask: (_request, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          state.withdrawn = signal.reason;
        });
        state.answer = (decision) => resolve({ decision });
      }),
  };
  return { channel, state };
};

describe('approverOf: approval channels offered together', () => {
  it('takes the first answer of [elicitation, another channel] and withdraws the other question', async () => {
    const form = pendingChannel('elicitation');
    const console = pendingChannel('approver');
    const answer = approverOf([form.channel, console.channel], 'client 1.0')(request, {
      signal: new AbortController().signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    console.state.answer?.('allow');
    await expect(answer).resolves.toEqual({
      decision: 'allow',
      answeredBy: { channel: 'approver', who: 'client 1.0' },
    });
    expect(form.state.withdrawn).toBeInstanceOf(Error);
    expect(console.state.withdrawn).toBeUndefined();
  });

  it('withdraws every question when the call is cancelled', async () => {
    const form = pendingChannel('elicitation');
    const controller = new AbortController();
    void approverOf([form.channel])(request, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort('gone');
    expect(form.state.withdrawn).toBe('gone');
  });

  it('denies for now, saying the approval is pending, when every channel defers to a retry', async () => {
    const deferring: ApprovalChannel = {
      name: 'input_required',
      canAsk: () => true,
      ask: () => undefined,
    };
    const answer = await approverOf([deferring])(request, { signal: new AbortController().signal });
    expect(answer).toMatchObject({
      decision: 'deny',
      asked: false,
      answeredBy: { channel: 'input_required' },
    });
    expect(answer.reason).toMatch(
      /^approval pending: asked from the MCP client through input_required/,
    );
  });

  it('denies, saying why, when no channel can reach a person', async () => {
    const closed: ApprovalChannel = {
      name: 'elicitation',
      canAsk: () => false,
      ask: () => undefined,
    };
    const answer = await approverOf([closed])(request, { signal: new AbortController().signal });
    expect(answer).toEqual({
      decision: 'deny',
      reason: NO_APPROVAL_CHANNEL,
      asked: false,
      answeredBy: { channel: 'none' },
    });
  });
});
