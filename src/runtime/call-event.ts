import { argumentDigest, redactSecrets } from '../audit/argument-digest.js';
import type { AuditEvent, AuditEventType } from '../audit/audit-event.js';
import type { CallResult } from '../tool/tool-result.js';
import type { PreparedCall } from './prepare-call.js';
import type { ToolCall } from './tool-call.js';

/**
 * Digests by arguments object: a call's events (started, then succeeded) share one
 * arguments object, so its digest is computed once, from the arguments as they were when
 * the first event was built (before the tool ran).
 */
const digests = new WeakMap<object, string>();

const digestOf = (args: unknown): string => {
  if (typeof args !== 'object' || args === null) return argumentDigest(args);
  let digest = digests.get(args);
  if (digest === undefined) {
    digest = argumentDigest(args);
    digests.set(args, digest);
  }
  return digest;
};

/** Redacted copies of arguments objects, likewise made once, for the first event. */
const redacted = new WeakMap<object, unknown>();

const redactedOf = (args: unknown): unknown => {
  if (typeof args !== 'object' || args === null) return redactSecrets(args);
  let copy = redacted.get(args);
  if (copy === undefined) {
    copy = redactSecrets(args);
    redacted.set(args, copy);
  }
  return copy;
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
    time: new Date().toISOString(),
    batchId,
    callId: call.id,
    tool: call.name,
  };
  if (prepared !== undefined) {
    event.origin = prepared.origin;
    event.class = prepared.class;
    event.approvalKeys = prepared.approvalKeys;
  }
  event.argsDigest = digestOf(args);
  if (includeArguments) event.arguments = redactedOf(args);
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
