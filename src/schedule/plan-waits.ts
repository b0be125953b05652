import { LockManager } from './lock-manager.js';
import type { Lock } from './lock-mode.js';

/**
 * For calls in order, the ids of the earlier calls each waits for: every earlier call
 * whose locks conflict with its own. Runs nothing.
 */
export function planWaits(
  calls: ReadonlyArray<{ readonly id: string; readonly locks: readonly Lock[] }>,
): string[][] {
  const manager = new LockManager();
  return calls.map((call) => [...manager.admit(call.id, call.locks, () => {}).waitsFor]);
}
