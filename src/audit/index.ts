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
} from './audit-event.js';
export { createJsonlAuditSink, type JsonlAuditSinkOptions } from './jsonl-audit-sink.js';
export { createMemoryAuditSink, type MemoryAuditSink } from './memory-audit-sink.js';
