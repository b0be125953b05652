import type { AuditEvent, AuditEventType } from '../audit/audit-event.js';
import type {
  ApprovalAsk,
  ApprovalOutcome,
  Authorizer,
  DecideContext,
  Decision,
} from '../policy/authorizer.js';
import type { Approver } from '../policy/policy-types.js';
import type { AbortScope } from '../schedule/abort-scope.js';
import type { CallResult } from '../tool/tool-result.js';
import { failedResult } from './call-result.js';
import type { PreparedCall } from './prepare-call.js';

/** What the policy made of one call: run it (and why), or its `denied` result. */
export type Authorization =
  | { readonly allowed: true; readonly decision: Decision }
  | { readonly allowed: false; readonly result: CallResult; readonly decision: Decision };

/** What {@link authorizeBatch} needs. */
export interface AuthorizeOptions {
  readonly authorizer: Authorizer;
  /** The batch's scope; its `AbortSignal` is made only if an approver is asked. */
  readonly signal: AbortScope | undefined;
  /** Who to ask for this batch instead of the configured approver. */
  readonly approver?: Approver | undefined;
  /** The session the batch belongs to (see `DecideContext`). */
  readonly session?: string | null | undefined;
  /** Records an approval event about a call. */
  readonly record: (type: AuditEventType, call: PreparedCall, extra: Partial<AuditEvent>) => void;
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
  asks: readonly ApprovalAsk[],
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

/** A decision as the policy hook returned it, or a denial when it is not a decision. */
const checkDecision = (value: unknown): Decision => {
  const decision = value as Partial<Decision> | null | undefined;
  const kind = decision?.decision;
  if (
    (kind === 'allow' || kind === 'deny' || kind === 'ask') &&
    typeof decision?.reason === 'string'
  ) {
    return decision as Decision;
  }
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  return {
    decision: 'deny',
    reason: `the policy returned ${shown}, not { decision: "allow" | "deny" | "ask", reason }`,
  };
};

/** Decides every call; synchronous decisions cost no promise. A policy that throws denies. */
const decideAll = async (
  batch: readonly PreparedCall[],
  authorizer: Authorizer,
  context: DecideContext,
): Promise<Decision[]> => {
  const decisions: Decision[] = [];
  const pending: Promise<void>[] = [];
  const failed = (error: unknown): Decision => ({
    decision: 'deny',
    reason: `the policy failed (${messageOf(error)})`,
  });
  batch.forEach((call, index) => {
    try {
      const decision = authorizer.decide(call, context);
      if (decision instanceof Promise) {
        pending.push(
          decision.then(
            (value) => {
              decisions[index] = checkDecision(value);
            },
            (error: unknown) => {
              decisions[index] = failed(error);
            },
          ),
        );
      } else {
        decisions[index] = checkDecision(decision);
      }
    } catch (error) {
      decisions[index] = failed(error);
    }
  });
  if (pending.length > 0) await Promise.all(pending);
  return decisions;
};

/**
 * Decides every call of a batch, then asks for all approvals the batch needs at once,
 * before any call of it starts. Fails closed: a policy or approver that throws denies.
 */
export async function authorizeBatch(
  batch: readonly PreparedCall[],
  options: AuthorizeOptions,
): Promise<Authorization[]> {
  const context: DecideContext = options.session === undefined ? {} : { session: options.session };
  const decisions = await decideAll(batch, options.authorizer, context);
  const outcomes: Authorization[] = [];
  const asks: ApprovalAsk[] = [];
  const askIndex: number[] = [];
  decisions.forEach((decision, index) => {
    const call = batch[index] as PreparedCall;
    if (decision.decision === 'deny') {
      const message = deniedMessage(call.name, decision.reason, decision.message);
      outcomes[index] = { allowed: false, result: failedResult(call, 'denied', message), decision };
    } else if (decision.decision === 'ask') {
      asks.push({ call, decision });
      askIndex.push(index);
    } else {
      outcomes[index] = { allowed: true, decision };
    }
  });
  if (asks.length === 0) return outcomes;

  asks.forEach((ask, position) => {
    const call = batch[askIndex[position] as number] as PreparedCall;
    options.record('approval.requested', call, { decision: 'ask', reason: ask.decision.reason });
  });
  const answers = await askAll(asks, options);
  answers.forEach((answer, position) => {
    const index = askIndex[position] as number;
    const { decision } = asks[position] as ApprovalAsk;
    const call = batch[index] as PreparedCall;
    const allowed = answer.allow === true;
    const type = allowed ? 'approval.granted' : 'approval.denied';
    options.record(type, call, {
      decision: 'ask',
      reason: answer.reason,
      ...(answer.answeredBy === undefined ? {} : { answeredBy: answer.answeredBy }),
    });
    outcomes[index] = allowed
      ? {
          allowed: true,
          decision: { decision: 'allow', reason: `${decision.reason}; approved: ${answer.reason}` },
        }
      : {
          allowed: false,
          // A batch cancelled while it waited for a person ends cancelled, not denied.
          result: options.signal?.aborted
            ? failedResult(
                call,
                'cancelled',
                `The call to "${call.name}" was cancelled while it waited for approval.`,
              )
            : failedResult(call, 'denied', deniedMessage(call.name, answer.reason, answer.message)),
          decision: {
            decision: 'deny',
            reason: `${decision.reason}; not approved: ${answer.reason}`,
          },
        };
  });
  return outcomes;
}
