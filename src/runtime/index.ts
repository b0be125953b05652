export { AuditWriteError } from './audit-write-error.js';
export { graceMsOf } from './close-options.js';
export { createRuntime, DEFAULT_TIMEOUT_MS } from './create-runtime.js';
export { DEFAULT_RETRY, type ResolvedRetry, retryDelay } from './retry-delay.js';
export { isRetryable, RetryableError, type RetryableErrorOptions } from './retryable-error.js';
export type {
  CallDecision,
  CloseOptions,
  DecideOptions,
  ExecuteOptions,
  PlanEntry,
  Runtime,
  Turn,
  TurnCallOptions,
} from './runtime.js';
export type { RuntimeOptions, TrustOptions } from './runtime-options.js';
export type { ToolCall } from './tool-call.js';
