import { type Lock, locksConflict } from './lock-mode.js';

/**
 * For calls in order, the ids of the earlier calls each waits for: every earlier call
 * whose locks conflict with its own, including those it also reaches through another.
 * Runs nothing.
 */
export function planWaits(
  calls: ReadonlyArray<{ readonly id: string; readonly locks: readonly Lock[] }>,
): string[][] {
  return calls.map((call, j) => {
    const waits: string[] = [];
    for (let i = 0; i < j; i += 1) {
      const earlier = calls[i] as (typeof calls)[number];
      if (locksConflict(earlier.locks, call.locks)) waits.push(earlier.id);
    }
    return waits;
  });
}
