/** Time source and timers, injectable so that tests can fake time. */
export interface Clock {
  /** Monotonic milliseconds. */
  now(): number;
  /** Runs `callback` after `ms` milliseconds; returns a handle for {@link Clock.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock: `performance.now()` and the global timers, looked up at call time so
 * that `vi.useFakeTimers()` applies to them.
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};
