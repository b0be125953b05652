import { describe, expect, it } from 'vitest';
import { HintgateError } from '../../errors/index.js';
import { readApprovalResponse } from './read-approval-response.js';

describe('readApprovalResponse', () => {
  it('takes decisions by position, as LangChain human-in-the-loop answers come', () => {
    const read = readApprovalResponse(
      {
        decisions: [
          { type: 'approve', remember: 'session', message: 'fine' },
          { type: 'reject', message: 'not that file' },
        ],
      },
      ['a', 'b'],
    );
    expect(read).toEqual({
      answers: new Map([
        ['a', { decision: 'allow', remember: 'session', reason: 'fine' }],
        ['b', { decision: 'deny', reason: 'not that file' }],
      ]),
    });
  });

  it('takes decisions by id when every decision names its call, ignoring calls no longer asked about', () => {
    const read = readApprovalResponse(
      {
        decisions: [
          { type: 'reject', toolCallId: 'b' },
          { type: 'approve', toolCallId: 'gone' },
          { type: 'approve', toolCallId: 'a' },
        ],
      },
      ['a', 'b'],
    );
    expect(read).toEqual({
      answers: new Map([
        ['b', { decision: 'deny' }],
        ['gone', { decision: 'allow' }],
        ['a', { decision: 'allow' }],
      ]),
    });
  });

  it('says why an answer does not fit the calls asked about now', () => {
    expect(readApprovalResponse({ decisions: [{ type: 'approve' }] }, ['a', 'b'])).toEqual({
      retry: 'The answer had 1 decision(s) for 2 call(s) that need approval now.',
    });
    expect(
      readApprovalResponse({ decisions: [{ type: 'approve', toolCallId: 'a' }] }, ['a', 'b']),
    ).toEqual({
      retry: 'The answer had no decision for the call(s) "b", which need approval now.',
    });
  });

  it.each([
    ['not an object', 'approve', /is not \{ decisions/],
    ['no decisions', {}, /is not \{ decisions/],
    ['an edit', { decisions: [{ type: 'edit' }] }, /'edit', which hintgate does not offer/],
    ['an unknown type', { decisions: [{ type: 'maybe' }] }, /neither 'approve' nor 'reject'/],
    ['a bad remember', { decisions: [{ type: 'approve', remember: 'forever' }] }, /remember/],
    [
      'remember on a rejection',
      { decisions: [{ type: 'reject', remember: 'session' }] },
      /rejection/,
    ],
    ['a message that is not text', { decisions: [{ type: 'reject', message: 1 }] }, /message/],
    [
      'ids on some decisions only',
      { decisions: [{ type: 'approve', toolCallId: 'a' }, { type: 'approve' }] },
      /some decisions but not of others/,
    ],
    [
      'two decisions for one call',
      {
        decisions: [
          { type: 'approve', toolCallId: 'a' },
          { type: 'reject', toolCallId: 'a' },
        ],
      },
      /two decisions for the call "a"/,
    ],
  ])('refuses %s, saying what to resume with', (_label, value, message) => {
    const read = () => readApprovalResponse(value, ['a', 'b']);
    expect(read).toThrow(HintgateError);
    expect(read).toThrow(message);
    expect(read).toThrow(/Resume with \{ decisions/);
  });
});
