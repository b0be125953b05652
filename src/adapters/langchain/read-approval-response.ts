import { HintgateError } from '../../errors/index.js';
import type { ApprovalAnswer, RememberScope } from '../../policy/index.js';
import { isPlainObject } from '../../tool/index.js';

/**
 * A person's answer to one call, as LangChain's human-in-the-loop `Decision` (`approve` or
 * `reject`, with an optional `message`), with two optional fields of hintgate's.
 */
export type HintgateDecision =
  | {
      readonly type: 'approve';
      /**
       * How long hintgate remembers the approval: `once` (default) for this call, `session`
       * for this tool and these approval keys in the session, `always` in the runtime's
       * approvals file. A scope the call cannot have counts as the widest one it can.
       */
      readonly remember?: RememberScope;
      /** Recorded in the audit log. */
      readonly message?: string;
      /** The call this answers; when every decision names one, order does not matter. */
      readonly toolCallId?: string;
    }
  | {
      readonly type: 'reject';
      /** Why: the model reads it with the denial, and the audit log records it. */
      readonly message?: string;
      /** The call this answers; when every decision names one, order does not matter. */
      readonly toolCallId?: string;
    };

/**
 * The value to resume the agent with (`new Command({ resume })`) after a
 * {@link HintgateApprovalRequest}: LangChain's `HITLResponse`, one decision per action
 * request, in their order (or each naming its `toolCallId`).
 */
export interface HintgateApprovalResponse {
  readonly decisions: readonly HintgateDecision[];
}

/** What a response gives: the answers by call id, or why it does not fit the calls asked. */
export type ReadResponse =
  | { readonly answers: ReadonlyMap<string, ApprovalAnswer> }
  | { readonly retry: string };

const REMEMBER: readonly unknown[] = ['once', 'session', 'always'];

const invalid = (message: string): never => {
  throw new HintgateError(
    'invalid_option',
    `The value the agent was resumed with ${message}. Resume with { decisions: [{ type: 'approve', remember?: 'once' | 'session' | 'always' } | { type: 'reject', message? }, ...] }, one decision per action request, in their order.`,
  );
};

/** Checks one decision and turns it into hintgate's answer. */
const answerOf = (decision: unknown, at: number): ApprovalAnswer => {
  const where = `decisions[${at}]`;
  if (!isPlainObject(decision)) return invalid(`has ${where} that is not an object`);
  const { type, remember, message, toolCallId } = decision;
  if (message !== undefined && typeof message !== 'string') {
    invalid(`has ${where}.message that is not a string`);
  }
  if (toolCallId !== undefined && typeof toolCallId !== 'string') {
    invalid(`has ${where}.toolCallId that is not a string`);
  }
  const reason = message === undefined ? {} : { reason: message as string };
  if (type === 'reject') {
    if (remember !== undefined) invalid(`has ${where}.remember on a rejection`);
    return { decision: 'deny', ...reason };
  }
  if (type !== 'approve') {
    return invalid(
      type === 'edit'
        ? `has ${where} of type 'edit', which hintgate does not offer (the person approves or rejects the call the model made)`
        : `has ${where}.type that is neither 'approve' nor 'reject'`,
    );
  }
  if (remember !== undefined && !REMEMBER.includes(remember)) {
    invalid(`has ${where}.remember that is not 'once', 'session' or 'always'`);
  }
  return {
    decision: 'allow',
    ...(remember === undefined ? {} : { remember: remember as RememberScope }),
    ...reason,
  };
};

/**
 * Reads the value the agent was resumed with against the calls asked about now (in the
 * model's order). Decisions that all name their call are matched by id; otherwise by
 * position, as LangChain's human-in-the-loop middleware does. When they do not answer
 * exactly these calls (the calls that need approval changed while the person decided, say
 * one was approved for the session meanwhile), the result says why, for asking again.
 *
 * @throws HintgateError `invalid_option` for a value that is not a response at all.
 */
export function readApprovalResponse(value: unknown, askedIds: readonly string[]): ReadResponse {
  if (!isPlainObject(value) || !Array.isArray(value.decisions)) {
    return invalid('is not { decisions: [...] }');
  }
  const decisions: readonly unknown[] = value.decisions;
  const answers = decisions.map(answerOf);
  const named = decisions.map((decision) => (decision as { toolCallId?: string }).toolCallId);
  const byId = named.every((id) => id !== undefined);
  if (!byId && named.some((id) => id !== undefined)) {
    invalid('names the toolCallId of some decisions but not of others');
  }
  if (!byId || decisions.length === 0) {
    if (answers.length !== askedIds.length) {
      return {
        retry: `The answer had ${answers.length} decision(s) for ${askedIds.length} call(s) that need approval now.`,
      };
    }
    return { answers: new Map(askedIds.map((id, at) => [id, answers[at] as ApprovalAnswer])) };
  }
  const given = new Map<string, ApprovalAnswer>();
  named.forEach((id, at) => {
    if (given.has(id as string)) invalid(`has two decisions for the call "${id}"`);
    given.set(id as string, answers[at] as ApprovalAnswer);
  });
  const missing = askedIds.filter((id) => !given.has(id));
  if (missing.length > 0) {
    return {
      retry: `The answer had no decision for the call(s) ${missing.map((id) => JSON.stringify(id)).join(', ')}, which need approval now.`,
    };
  }
  return { answers: given };
}
