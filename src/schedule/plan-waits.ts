import type { Lock } from './lock-mode.js';
import { WaitPlanner } from './wait-planner.js';

/**
 * For calls in order, the ids of the earlier calls each waits for directly, as the lock
 * manager would queue them if they arrived together with nothing else under way: on each
 * node it locks, the latest earlier call holding it exclusively (`X`) and the conflicting
 * calls after that one. An earlier conflicting call that one of these already waits for is
 * not repeated, so every call waits for a short list and the plan costs time linear in the
 * calls and the waits kept. Every earlier call a call conflicts with is in the transitive
 * closure of its waits (the closure may also hold calls it is ordered after only through
 * others). Each list is in call order; calls that wait for nothing share one frozen empty
 * list. Runs nothing. See {@link WaitPlanner} for calls given one at a time.
 */
export function planWaits(
  calls: ReadonlyArray<{ readonly id: string; readonly locks: readonly Lock[] }>,
): (readonly string[])[] {
  const planner = new WaitPlanner((index) => (calls[index] as { id: string }).id, calls.length);
  return calls.map((call) => planner.add(call.locks));
}
