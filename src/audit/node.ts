// The Node-only part of the audit layer: the durable JSONL sink and its file system.

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
