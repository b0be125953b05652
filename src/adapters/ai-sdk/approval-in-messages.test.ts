import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { approvalInMessages, MAX_REASON_CHARS } from './approval-in-messages.js';
import { approvalResponse } from './approval-response.js';

const history = (...responses: unknown[]): ModelMessage[] => [
  { role: 'user', content: 'go' },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c1', toolName: 'w', input: {} },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'w', input: {} },
      { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
      { type: 'tool-approval-request', approvalId: 'a2', toolCallId: 'c2' },
    ],
  },
  { role: 'tool', content: responses } as ModelMessage,
];

describe('approvalInMessages', () => {
  it('finds the answer to the request of a call in the last message', () => {
    const messages = history(
      approvalResponse({ approvalId: 'a1', approved: true, remember: 'session', reason: 'fine' }),
      approvalResponse({ approvalId: 'a2', approved: false }),
    );
    expect(approvalInMessages(messages, 'c1')).toEqual({
      approvalId: 'a1',
      approved: true,
      remember: 'session',
      reason: 'fine',
    });
    expect(approvalInMessages(messages, 'c2')).toEqual({ approvalId: 'a2', approved: false });
    expect(approvalInMessages(messages, 'c3')).toBeUndefined();
  });

  it('reads only the last message, and only a tool message', () => {
    const answered = history(approvalResponse({ approvalId: 'a1', approved: true }));
    expect(
      approvalInMessages([...answered, { role: 'user', content: 'next' }], 'c1'),
    ).toBeUndefined();
    expect(approvalInMessages([], 'c1')).toBeUndefined();
  });

  it('ignores malformed parts, an unknown remember and an answer to a request of another call', () => {
    const messages = history(
      { type: 'tool-approval-response', approvalId: 'a1', approved: 'yes' },
      { type: 'tool-approval-response', approvalId: 7, approved: true },
      null,
      { type: 'tool-approval-response', approvalId: 'a2', approved: true, remember: 'forever' },
    );
    expect(approvalInMessages(messages, 'c1')).toBeUndefined();
    expect(approvalInMessages(messages, 'c2')).toEqual({ approvalId: 'a2', approved: true });
  });

  it('cuts a long reason', () => {
    const reason = 'x'.repeat(MAX_REASON_CHARS * 3);
    const given = approvalInMessages(
      history({ type: 'tool-approval-response', approvalId: 'a1', approved: true, reason }),
      'c1',
    );
    expect(given?.reason).toHaveLength(MAX_REASON_CHARS);
  });
});

describe('approvalResponse', () => {
  it('builds a tool-approval-response part, with remember when given', () => {
    expect(approvalResponse({ approvalId: 'a', approved: true })).toEqual({
      type: 'tool-approval-response',
      approvalId: 'a',
      approved: true,
    });
    expect(approvalResponse({ approvalId: 'a', approved: false, reason: 'no' })).toEqual({
      type: 'tool-approval-response',
      approvalId: 'a',
      approved: false,
      reason: 'no',
    });
  });

  it('refuses what the SDK or hintgate would not understand, saying what to pass', () => {
    expect(() => approvalResponse({ approvalId: '', approved: true })).toThrow(
      /approvalId must be/,
    );
    expect(() => approvalResponse({ approvalId: 'a', approved: 'yes' as never })).toThrow(
      /approved must be true or false/,
    );
    expect(() =>
      approvalResponse({ approvalId: 'a', approved: true, remember: 'ever' as never }),
    ).toThrow(/remember must be 'once', 'session' or 'always'/);
    expect(() =>
      approvalResponse({ approvalId: 'a', approved: true, scope: 'x' } as never),
    ).toThrow(/unknown option "scope"/);
  });
});
