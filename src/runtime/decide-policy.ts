import type { Authorizer, DecideContext, Decision } from '../policy/index.js';
import type { PreparedCall } from './prepare-call.js';

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

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

const failed = (error: unknown): Decision => ({
  decision: 'deny',
  reason: `the policy failed (${messageOf(error)})`,
});

/**
 * The policy's decision on one call: `allow`, `deny` or `ask`, with its reason. Answers at
 * once when the policy does (no promise); fails closed: a policy that throws, rejects or
 * returns something else than a decision denies. Never throws or rejects.
 */
export function decidePolicy(
  call: PreparedCall,
  authorizer: Authorizer,
  context: DecideContext,
): Decision | Promise<Decision> {
  try {
    const decision = authorizer.decide(call, context);
    if (decision instanceof Promise) return decision.then(checkDecision, failed);
    return checkDecision(decision);
  } catch (error) {
    return failed(error);
  }
}
