import { argumentDigest, redactSecrets } from '../audit/argument-digest.js';
import type { AuditEvent, AuditEventType } from '../audit/audit-event.js';
import type { CallResult } from '../tool/tool-result.js';
import type { PreparedCall } from './prepare-call.js';
import type { ToolCall } from './tool-call.js';

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
  return {
    type,
    time: new Date().toISOString(),
    batchId,
    callId: call.id,
    tool: call.name,
    ...(prepared === undefined
      ? {}
      : { origin: prepared.origin, class: prepared.class, approvalKeys: prepared.approvalKeys }),
    argsDigest: argumentDigest(args),
    ...(includeArguments ? { arguments: redactSecrets(args) } : {}),
    ...extra,
  };
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
