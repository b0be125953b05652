import type { RememberScope } from '../../policy/index.js';

/** An answer the app gave to an approval request, found in the message history. */
export interface GivenApproval {
  /** The id of the SDK's approval request. */
  readonly approvalId: string;
  /** The person's answer: true for an approval. */
  readonly approved: boolean;
  /** The reason given with the answer, at most {@link MAX_REASON_CHARS} characters. */
  readonly reason?: string;
  /** How long hintgate should remember an approval, when the answer says so. */
  readonly remember?: RememberScope;
}

/** Longest reason taken from a message history into hintgate's audit log. */
export const MAX_REASON_CHARS = 1_000;

const SCOPES: readonly unknown[] = ['once', 'session', 'always'] satisfies RememberScope[];

const partsOf = (message: unknown): readonly unknown[] => {
  if (typeof message !== 'object' || message === null) return [];
  const { content } = message as { content?: unknown };
  return Array.isArray(content) ? content : [];
};

const roleOf = (message: unknown): unknown =>
  typeof message === 'object' && message !== null
    ? (message as { role?: unknown }).role
    : undefined;

/** The part as a record when it has the given `type`. */
const ofType = (part: unknown, type: string): Record<string, unknown> | undefined =>
  typeof part === 'object' && part !== null && (part as { type?: unknown }).type === type
    ? (part as Record<string, unknown>)
    : undefined;

/** True when an assistant message of the history asked approval `approvalId` for `toolCallId`. */
const requested = (
  messages: readonly unknown[],
  approvalId: string,
  toolCallId: string,
): boolean => {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (roleOf(message) !== 'assistant') continue;
    for (const part of partsOf(message)) {
      const request = ofType(part, 'tool-approval-request');
      if (request?.approvalId === approvalId) return request.toolCallId === toolCallId;
    }
  }
  return false;
};

/**
 * The answer to the approval request of a tool call, as the AI SDK reads it: a
 * `tool-approval-response` in the last message (a `tool` message) whose request, in an
 * earlier assistant message, is for that call. The history comes from the app and may
 * come from its client: every field is checked, and an answer is only as trustworthy as
 * the history (see `IssuedAsks`). Besides the SDK's fields, a `remember` of `once`,
 * `session` or `always` is read (set by {@link approvalResponse}).
 */
export function approvalInMessages(
  messages: readonly unknown[],
  toolCallId: string,
): GivenApproval | undefined {
  const last = messages.at(-1);
  if (roleOf(last) !== 'tool') return undefined;
  for (const part of partsOf(last)) {
    const response = ofType(part, 'tool-approval-response');
    if (response === undefined) continue;
    const { approvalId, approved, reason, remember } = response;
    if (typeof approvalId !== 'string' || typeof approved !== 'boolean') continue;
    if (!requested(messages, approvalId, toolCallId)) continue;
    return {
      approvalId,
      approved,
      ...(typeof reason === 'string' && reason !== ''
        ? { reason: reason.slice(0, MAX_REASON_CHARS) }
        : {}),
      ...(SCOPES.includes(remember) ? { remember: remember as RememberScope } : {}),
    };
  }
  return undefined;
}
