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
export { type AuditFileSystem, nodeAuditFileSystem } from './audit-file-system.js';
export {
  type AuditRotateOptions,
  DEFAULT_AUDIT_ROTATE_KEEP,
  MIN_AUDIT_ROTATE_BYTES,
} from './audit-rotate-options.js';
export {
  createJsonlAuditSink,
  DEFAULT_MAX_SYNC_DELAY_MS,
  type JsonlAuditSinkOptions,
} from './jsonl-audit-sink.js';
export type { JsonlSync } from './jsonl-sync-policy.js';
export { createMemoryAuditSink, type MemoryAuditSink } from './memory-audit-sink.js';
