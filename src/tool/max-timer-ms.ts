/**
 * The longest delay a Node.js timer honours (2^31 - 1 ms, about 24.8 days). Longer ones,
 * and `Infinity`, fire after 1 ms, so every millisecond option is capped here.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** True for a finite number of milliseconds in (0, {@link MAX_TIMER_MS}]. */
export function isTimerMs(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS;
}
