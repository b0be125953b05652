import { HintgateError } from '../../errors/index.js';
import { isTimerMs, MAX_TIMER_MS } from '../../tool/index.js';

/** A request limit of the HTTP endpoint, per caller: at most `max` requests per `windowMs`. */
export interface HttpRateLimit {
  /** Requests one caller may send per window (a positive integer). */
  readonly max: number;
  /** Length of the window in milliseconds. */
  readonly windowMs: number;
}

/**
 * Checks an HTTP request limit.
 *
 * @throws HintgateError `invalid_option` saying what a limit looks like.
 */
export function checkHttpRateLimit(value: unknown): HttpRateLimit {
  const limit = value as Partial<HttpRateLimit> | null;
  if (
    typeof limit !== 'object' ||
    limit === null ||
    !Number.isInteger(limit.max) ||
    (limit.max as number) < 1 ||
    !isTimerMs(limit.windowMs)
  ) {
    throw new HintgateError(
      'invalid_option',
      `rateLimit must be { max: positive integer, windowMs: milliseconds in (0, ${MAX_TIMER_MS}] }, for example { max: 100, windowMs: 60000 }.`,
    );
  }
  return { max: limit.max as number, windowMs: limit.windowMs as number };
}

/** Most callers tracked at once; the ones idle longest are forgotten first. */
const MAX_CALLERS = 10_000;

/**
 * Counts requests per caller in fixed windows (one counter per caller and window, so a
 * flood costs constant memory per caller). `take` says whether one more request fits.
 */
export class HttpRateLimiter {
  readonly limit: HttpRateLimit;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(limit: HttpRateLimit, now: () => number = Date.now) {
    this.limit = checkHttpRateLimit(limit);
    this.#now = now;
  }

  /**
   * Counts a request of `caller`: `undefined` when it fits, else the seconds until the
   * caller's window ends (for `Retry-After`, at least 1).
   */
  take(caller: string): number | undefined {
    const now = this.#now();
    const { max, windowMs } = this.limit;
    let window = this.#windows.get(caller);
    if (window === undefined || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
    }
    // Re-inserted last: the map's first entries are the callers idle longest.
    this.#windows.delete(caller);
    this.#windows.set(caller, window);
    if (this.#windows.size > MAX_CALLERS) {
      const oldest = this.#windows.keys().next().value;
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
    if (window.count >= max) {
      return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    }
    window.count += 1;
    return undefined;
  }
}
