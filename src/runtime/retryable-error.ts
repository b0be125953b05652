/** Options of {@link RetryableError}. */
export interface RetryableErrorOptions {
  /** Wait at least this long before the retry, in milliseconds (e.g. from `Retry-After`). */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

/**
 * Thrown by a tool for a transient failure (a dropped connection, a 503, a 429). The
 * runtime retries it with backoff when the tool is read-only or idempotent. Any error with
 * `retryable: true` counts the same.
 */
export class RetryableError extends Error {
  readonly retryable = true;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: RetryableErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RetryableError';
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** True for a {@link RetryableError} or any error that carries `retryable: true`. */
export function isRetryable(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { retryable?: unknown }).retryable === true
  );
}
