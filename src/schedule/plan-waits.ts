import { LockManager } from './lock-manager.js';
import type { Lock } from './lock-mode.js';

const noop = (): void => {};

/**
 * For calls in order, the ids of the earlier calls each waits for directly, as the lock
 * manager would queue them if they arrived together with nothing else under way: on each
 * node it locks, the latest earlier call holding it exclusively (`X`) and the conflicting
 * calls after that one. An earlier conflicting call that one of these already waits for is
 * not repeated, so every call waits for a short list and the plan costs time linear in the
 * calls and the waits kept. Every earlier call a call conflicts with is in the transitive
 * closure of its waits (the closure may also hold calls it is ordered after only through
 * others). Each list is in call order. Runs nothing.
 */
export function planWaits(
  calls: ReadonlyArray<{ readonly id: string; readonly locks: readonly Lock[] }>,
): string[][] {
  const manager = new LockManager();
  const position = new Map<string, number>();
  return calls.map((call, index) => {
    position.set(call.id, index);
    const { waitsFor } = manager.admit(call.id, call.locks, noop);
    // Most calls wait for one call or none: nothing to order.
    if (waitsFor.length < 2) return waitsFor as string[];
    // In call order, whatever order the lock manager found them in.
    return [...waitsFor].sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
  });
}
