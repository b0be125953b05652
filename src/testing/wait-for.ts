import { HintgateError } from '../errors/index.js';

/** Options of {@link waitFor}. */
export interface WaitForOptions {
  /**
   * How long to keep trying, in milliseconds of wall time, before failing. Default 10000:
   * a limit against hanging, not a speed check (shorter limits fail on loaded machines).
   */
  readonly timeoutMs?: number;
  /** Pause between two tries, in milliseconds. Default 20. */
  readonly intervalMs?: number;
  /** What is awaited, for the error message. Default `"condition"`. */
  readonly what?: string;
}

/** A value {@link waitFor} keeps waiting on. */
type NotYet = undefined | null | false;

/**
 * Calls `check` until it gives a value other than `undefined`, `null` or `false`, and
 * resolves to that value: `await waitFor(() => events.length > 2)`,
 * `const line = await waitFor(() => lines.find(isReady))`. An error thrown by `check` fails
 * the wait at once. Rejects with an `Error` naming `what` after `timeoutMs`. `options` may
 * be a number: the `timeoutMs`.
 */
export async function waitFor<T>(
  check: () => T | NotYet | Promise<T | NotYet>,
  options: WaitForOptions | number = {},
): Promise<T> {
  const {
    timeoutMs = 10_000,
    intervalMs = 20,
    what = 'condition',
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  for (const [key, value] of [
    ['timeoutMs', timeoutMs],
    ['intervalMs', intervalMs],
  ] as const) {
    if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
      throw new HintgateError(
        'invalid_option',
        `waitFor: ${key} is ${JSON.stringify(value)}; use a number of milliseconds, 0 or more`,
      );
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
