import type { AuditEvent, AuditEventType } from '../audit/index.js';
import { argumentDigest, auditTime, redactSecrets } from '../audit/index.js';
import type { CallResult } from '../tool/index.js';
import type { PreparedCall } from './prepare-call.js';
import type { ToolCall } from './tool-call.js';

/**
 * What the events of one prepared call share: the digest of its arguments and their
 * redacted copy, made from the arguments as they were when its first event was built
 * (before the tool ran, which may change them). Keyed by the prepared call, which each
 * `execute` makes anew, so an arguments object a caller reuses is read again next time.
 */
const argumentsOfCall = new WeakMap<object, { digest: string; redacted?: unknown }>();

const argumentsOf = (
  prepared: PreparedCall | undefined,
  args: unknown,
  includeArguments: boolean,
): { digest: string; redacted?: unknown } => {
  if (prepared === undefined) {
    return {
      digest: argumentDigest(args),
      ...(includeArguments ? { redacted: redactSecrets(args) } : {}),
    };
  }
  let shared = argumentsOfCall.get(prepared);
  if (shared === undefined) {
    shared = { digest: argumentDigest(args) };
    argumentsOfCall.set(prepared, shared);
  }
  if (includeArguments && shared.redacted === undefined) shared.redacted = redactSecrets(args);
  return shared;
};

/**
 * An audit event about one call: identity, origin, class, approval keys and an argument
 * digest; the arguments themselves (secrets redacted) only when `includeArguments`.
 */
export function callEvent(
  type: AuditEventType,
  batchId: string,
  call: PreparedCall | ToolCall,
  extra: Partial<AuditEvent>,
  includeArguments: boolean,
): AuditEvent {
  const prepared = 'registered' in call ? call : undefined;
  const args = prepared?.arguments ?? call.arguments ?? {};
  const event: { -readonly [K in keyof AuditEvent]: AuditEvent[K] } = {
    type,
    time: auditTime(),
    batchId,
    callId: call.id,
    tool: call.name,
  };
  if (prepared !== undefined) {
    event.origin = prepared.origin;
    event.layer = prepared.registered.layer;
    event.class = prepared.class;
    event.approvalKeys = prepared.approvalKeys;
  }
  const shared = argumentsOf(prepared, args, includeArguments);
  event.argsDigest = shared.digest;
  // A copy per event, so that a sink changing one event's arguments leaves the others be.
  if (includeArguments) event.arguments = redactSecrets(shared.redacted);
  return Object.assign(event, extra);
}

/** The fields of a `call.succeeded` / `call.failed` event that come from the result. */
export function resultFields(result: CallResult): Partial<AuditEvent> {
  return {
    status: result.status,
    ...(result.error === undefined
      ? {}
      : { code: result.error.code, message: result.error.message }),
    attempts: result.attempts,
    queuedMs: result.queuedMs,
    runMs: result.runMs,
  };
}
