export {
  argumentDigest,
  canonicalJson,
  redactSecrets,
  SECRET_FIELD,
} from './argument-digest.js';
export { type AuditEmitter, createAuditEmitter } from './audit-emitter.js';
export {
  AUDIT_EVENT_TYPES,
  type AuditEvent,
  type AuditEventType,
  type AuditSink,
  type CallerIdentity,
} from './audit-event.js';
export { auditTime } from './audit-time.js';
export { createMemoryAuditSink, type MemoryAuditSink } from './memory-audit-sink.js';
