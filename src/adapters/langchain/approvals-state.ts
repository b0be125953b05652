import { z } from 'zod/v4';
import { argumentDigest } from '../../audit/index.js';
import type { ApprovalAnswer } from '../../policy/index.js';
import { isPlainObject } from '../../tool/index.js';

/**
 * The agent state key under which the middleware hands the person's answers to the tools.
 * Private (its name starts with `_`): LangChain keeps it out of the agent's input and output,
 * so nobody can pass approvals in with the messages.
 */
export const APPROVALS_KEY = '_hintgateApprovals';

/** A person's answer to one call, bound to the call it was given for. */
export interface GivenApproval {
  /** The tool the call was to. */
  readonly name: string;
  /** `argumentDigest` of the arguments the person saw. */
  readonly digest: string;
  /** The person's answer, as hintgate's approver would give it. */
  readonly answer: ApprovalAnswer;
}

/** The answers of one model message, by tool call id. */
export type GivenApprovals = Readonly<Record<string, GivenApproval>>;

const answerSchema = z.object({
  decision: z.enum(['allow', 'deny']),
  remember: z.enum(['once', 'session', 'always']).optional(),
  reason: z.string().optional(),
});

/** The middleware's state: the answers given for the calls of the last model message. */
export const approvalsStateSchema = z.object({
  [APPROVALS_KEY]: z
    .record(z.string(), z.object({ name: z.string(), digest: z.string(), answer: answerSchema }))
    .optional(),
});

/** Binds an answer to a call: it holds for that tool and these arguments only. */
export function givenApproval(name: string, args: unknown, answer: ApprovalAnswer): GivenApproval {
  return { name, digest: argumentDigest(args), answer };
}

/**
 * The answer given for a call, from the state LangChain hands the tool: only one the
 * middleware recorded for this call id, this tool and exactly these arguments (a middleware
 * that changed them since does not carry the approval over).
 */
export function approvalFor(
  state: unknown,
  callId: string,
  name: string,
  args: unknown,
): ApprovalAnswer | undefined {
  if (!isPlainObject(state)) return undefined;
  const given = state[APPROVALS_KEY];
  if (!isPlainObject(given) || !Object.hasOwn(given, callId)) return undefined;
  const record = given[callId];
  if (!isPlainObject(record) || record.name !== name) return undefined;
  const parsed = answerSchema.safeParse(record.answer);
  if (!parsed.success || record.digest !== argumentDigest(args)) return undefined;
  const { decision, remember, reason } = parsed.data;
  return {
    decision,
    ...(remember === undefined ? {} : { remember }),
    ...(reason === undefined ? {} : { reason }),
  };
}
