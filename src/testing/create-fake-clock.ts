import { HintgateError } from '../errors/index.js';
import type { Clock } from '../schedule/index.js';

/** Options of {@link createFakeClock}. */
export interface FakeClockOptions {
  /** The time `now()` starts at, in milliseconds. Default 0. */
  readonly start?: number;
}

/** A {@link Clock} whose time moves only when a test moves it. */
export interface FakeClock extends Clock {
  /**
   * Moves time forward by `ms` milliseconds, firing every timer that falls due, in due
   * order, and letting the promises they settle run before the next one fires.
   */
  advance(ms: number): Promise<void>;
  /** Fires timers until none is left (at most 10,000), moving time to each. */
  runAll(): Promise<void>;
  /** How many timers are waiting. */
  pending(): number;
}

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/** Lets pending promise callbacks and I/O callbacks run once. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A fake clock to inject where hintgate takes a `clock` option (`createRuntime`, rate
 * limits, retries, timeouts): nothing fires until `advance` or `runAll`, so tests of
 * time-driven behaviour are exact and never wait for real time.
 */
export function createFakeClock(options: FakeClockOptions = {}): FakeClock {
  let now = options.start ?? 0;
  let nextId = 1;
  const timers = new Map<number, Timer>();
  const due = (limit: number): Timer | undefined => {
    let first: Timer | undefined;
    for (const timer of timers.values()) {
      if (timer.at > limit) continue;
      if (first === undefined || timer.at < first.at) first = timer;
    }
    return first;
  };
  const fire = async (timer: Timer): Promise<void> => {
    timers.delete(timer.id);
    now = Math.max(now, timer.at);
    timer.callback();
    await settle();
  };
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
      timers.set(id, { id, at: now + delay, callback });
      return id;
    },
    clearTimeout(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
    async advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) {
        throw new HintgateError(
          'invalid_option',
          `advance(${String(ms)}): give a finite number of milliseconds, 0 or more`,
        );
      }
      const target = now + ms;
      await settle();
      for (let timer = due(target); timer !== undefined; timer = due(target)) await fire(timer);
      now = target;
    },
    async runAll() {
      await settle();
      for (let round = 0; timers.size > 0; round++) {
        if (round >= 10_000) {
          throw new HintgateError(
            'invalid_option',
            'runAll: timers kept scheduling new timers after 10,000 fired; use advance(ms)',
          );
        }
        const timer = due(Number.POSITIVE_INFINITY);
        if (timer !== undefined) await fire(timer);
      }
    },
    pending: () => timers.size,
  };
}
