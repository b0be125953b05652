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
  type AuditWriteOptions,
  type CallerIdentity,
} from './audit-event.js';
export {
  type AuditFileSystem,
  createJsonlAuditSink,
  DEFAULT_MAX_SYNC_DELAY_MS,
  type JsonlAuditSinkOptions,
  nodeAuditFileSystem,
} from './jsonl-audit-sink.js';
export { createMemoryAuditSink, type MemoryAuditSink } from './memory-audit-sink.js';
