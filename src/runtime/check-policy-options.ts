import { isPlainObject, isTimerMs, MAX_TIMER_MS } from '../tool/index.js';

const POLICY_KEYS = [
  'mode',
  'rules',
  'approver',
  'approvals',
  'sharedSessions',
  'approvalTimeoutMs',
] as const;

/**
 * Checks the policy-related options of `createRuntime` (mode and rules are checked by the
 * policy engine itself, with rule-level messages). Calls `invalid` with what to fix.
 */
export function checkPolicyOptions(
  o: Record<string, unknown>,
  invalid: (message: string) => never,
): void {
  if (o.authorizer !== undefined) {
    if (typeof (o.authorizer as { decide?: unknown })?.decide !== 'function') {
      invalid('authorizer must have a decide(call) method.');
    }
    const both = POLICY_KEYS.filter((key) => o[key] !== undefined);
    if (both.length > 0) {
      invalid(
        `give either authorizer or the built-in policy options (${both.join(', ')}), not both.`,
      );
    }
  }
  if (o.approver !== undefined && typeof o.approver !== 'function') {
    invalid(
      'approver must be a function (request, { signal }) => { decision, remember?, reason? }.',
    );
  }
  if (o.approvals !== undefined && !isApprovalStore(o.approvals)) {
    invalid(
      'approvals must be a store with path, hasAll(tool, keys) and add(tool, keys), such as createApprovalStore({ path }) from hintgate/node.',
    );
  }
  if (o.approvals !== undefined && o.approvalsFile !== undefined) {
    invalid('give either approvalsFile or approvals (a store of your own), not both.');
  }
  for (const key of ['approvals', 'sharedSessions'] as const) {
    const store = o[key] as { hasAll?: unknown; add?: unknown } | undefined;
    if (
      store !== undefined &&
      (typeof store?.hasAll !== 'function' || typeof store?.add !== 'function')
    ) {
      invalid(`${key} must have hasAll and add methods (see sharedAlwaysApprovals).`);
    }
  }
  const timeout = o.approvalTimeoutMs;
  if (timeout !== undefined && !isTimerMs(timeout)) {
    invalid(`approvalTimeoutMs must be milliseconds in (0, ${MAX_TIMER_MS}].`);
  }
  if (o.trust === undefined) return;
  const trust = o.trust;
  const fine =
    isPlainObject(trust) &&
    Object.keys(trust).every((key) => key === 'origins' || key === 'tools') &&
    (trust.origins === undefined ||
      (isPlainObject(trust.origins) &&
        Object.values(trust.origins).every((value) => typeof value === 'boolean'))) &&
    (trust.tools === undefined ||
      (isPlainObject(trust.tools) && Object.values(trust.tools).every(isPlainObject)));
  if (!fine) {
    invalid(
      'trust must be { origins?: { [origin]: true | false }, tools?: { [tool]: annotations } }.',
    );
  }
}

function isApprovalStore(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as { path?: unknown; hasAll?: unknown; add?: unknown };
  return (
    typeof store.path === 'string' &&
    typeof store.hasAll === 'function' &&
    typeof store.add === 'function'
  );
}
