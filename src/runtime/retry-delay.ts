import type { RetryOptions } from '../tool/index.js';

/** Retry settings after defaults. */
export interface ResolvedRetry {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** Retries of eligible tools when neither the tool nor the runtime says otherwise. */
export const DEFAULT_RETRY: ResolvedRetry = Object.freeze({
  attempts: 3,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
});

/** Merges a tool's retry settings over the runtime's. */
export function resolveRetry(
  tool: RetryOptions | undefined,
  runtime: ResolvedRetry,
): ResolvedRetry {
  if (tool === undefined) return runtime;
  return {
    attempts: tool?.attempts ?? runtime.attempts,
    baseDelayMs: tool?.baseDelayMs ?? runtime.baseDelayMs,
    maxDelayMs: tool?.maxDelayMs ?? runtime.maxDelayMs,
  };
}

/**
 * Delay before retry number `retry` (1 for the first retry): exponential backoff with full
 * jitter, `random() * min(maxDelayMs, baseDelayMs * 2^(retry-1))`, and never less than a
 * delay the failure asked for.
 */
export function retryDelay(
  retry: number,
  settings: ResolvedRetry,
  random: () => number,
  minimumMs = 0,
): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1));
  return Math.max(minimumMs, Math.floor(random() * ceiling));
}
