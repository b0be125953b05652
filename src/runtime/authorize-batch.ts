import type { AuditEvent, AuditEventType } from '../audit/index.js';
import type {
  ApprovalAsk,
  ApprovalOutcome,
  Approver,
  Authorizer,
  Decision,
} from '../policy/index.js';
import type { AbortScope } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import { failedResult } from './call-result.js';
import type { PreparedCall } from './prepare-call.js';

/** What the approval of one call came to: run it (and why), or its `denied` result. */
export type Authorization =
  | { readonly allowed: true; readonly decision: Decision }
  | { readonly allowed: false; readonly result: CallResult; readonly decision: Decision };

/** A call the policy said `ask` of. */
export interface PreparedAsk extends ApprovalAsk {
  readonly call: PreparedCall;
}

/** What {@link authorizeBatch} needs. */
export interface AuthorizeOptions {
  readonly authorizer: Authorizer;
  /** Ends the wait for the answers; its `AbortSignal` is made only if an approver is asked. */
  readonly signal: AbortScope | undefined;
  /** Who to ask instead of the configured approver. */
  readonly approver?: Approver | undefined;
  /** The session the calls belong to (see `DecideContext`). */
  readonly session?: string | null | undefined;
  /** Records an approval event about the ask at `position`. */
  readonly record: (type: AuditEventType, position: number, extra: Partial<AuditEvent>) => void;
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The text a denied call returns: why, and not to retry it blindly. */
export function deniedMessage(name: string, reason: string, message?: string): string {
  return (
    message ??
    `The call to "${name}" was denied: ${reason}. Do not retry it unchanged; ask the user how to proceed or take another approach.`
  );
}

const askAll = async (
  asks: readonly PreparedAsk[],
  options: AuthorizeOptions,
): Promise<readonly ApprovalOutcome[]> => {
  const { authorizer, signal } = options;
  if (authorizer.approve === undefined) {
    return asks.map(() => ({
      allow: false,
      reason:
        'approval is required but no approver is configured; configure an approver or a rule that allows this call',
      answeredBy: { channel: 'none' as const },
    }));
  }
  try {
    const answers = await authorizer.approve(asks, {
      ...(signal === undefined ? {} : { signal: signal.signal }),
      ...(options.approver === undefined ? {} : { approver: options.approver }),
      ...(options.session === undefined ? {} : { session: options.session }),
    });
    if (!Array.isArray(answers) || answers.length !== asks.length) {
      throw new Error(`it returned ${answers?.length ?? 'no'} answers for ${asks.length} asks`);
    }
    return answers;
  } catch (error) {
    const reason = `the approver failed (${messageOf(error)}), so the call was not run`;
    return asks.map(() => ({ allow: false, reason, answeredBy: { channel: 'none' as const } }));
  }
};

/**
 * Puts the `ask`s of calls that arrived together to the approver at once (a person judges
 * them as one group) and turns the answers into authorizations, recording
 * `approval.requested` for each before and `approval.granted` / `approval.denied` after.
 * Fails closed: an approver that throws or answers nonsense denies. A call whose wait was
 * cancelled ends `cancelled`, not `denied`.
 */
export async function authorizeBatch(
  asks: readonly PreparedAsk[],
  options: AuthorizeOptions,
): Promise<Authorization[]> {
  asks.forEach((ask, position) => {
    options.record('approval.requested', position, {
      decision: 'ask',
      reason: ask.decision.reason,
    });
  });
  const answers = await askAll(asks, options);
  return answers.map((answer, position): Authorization => {
    const { call, decision } = asks[position] as PreparedAsk;
    const allowed = answer.allow === true;
    const type = allowed ? 'approval.granted' : 'approval.denied';
    options.record(type, position, {
      decision: 'ask',
      reason: answer.reason,
      ...(answer.answeredBy === undefined ? {} : { answeredBy: answer.answeredBy }),
    });
    if (allowed) {
      return {
        allowed: true,
        decision: { decision: 'allow', reason: `${decision.reason}; approved: ${answer.reason}` },
      };
    }
    return {
      allowed: false,
      result: options.signal?.aborted
        ? failedResult(
            call,
            'cancelled',
            `The call to "${call.name}" was cancelled while it waited for approval.`,
          )
        : failedResult(call, 'denied', deniedMessage(call.name, answer.reason, answer.message)),
      decision: { decision: 'deny', reason: `${decision.reason}; not approved: ${answer.reason}` },
    };
  });
}
