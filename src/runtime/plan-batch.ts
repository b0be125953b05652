import type { Lock } from '../schedule/index.js';
import { planWaits } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import type { PreparedCall } from './prepare-call.js';
import type { PlanEntry } from './runtime.js';

type PlannedLocks = PlanEntry['locks'];

const NO_LOCKS: PlannedLocks = Object.freeze([]);

/**
 * The plan of a prepared batch: for each call, whether it can run, its class and locks,
 * and the ids of the earlier calls it would wait for directly (see `planWaits`). Runs nothing.
 * Calls with the same lock set (the runtime's lock sets are shared, see `memoCallLocks`)
 * share one frozen list of their locks, so a plan's size grows with its calls and waits only.
 */
export function planBatch(
  prepared: ReadonlyArray<PreparedCall | CallResult>,
  locksOf: (call: PreparedCall) => readonly Lock[],
): PlanEntry[] {
  const schedulable: { readonly id: string; readonly locks: readonly Lock[] }[] = [];
  for (const entry of prepared) {
    if ('registered' in entry) schedulable.push({ id: entry.id, locks: locksOf(entry) });
  }
  const waits = planWaits(schedulable);
  const shown = new Map<readonly Lock[], PlannedLocks>();
  const show = (locks: readonly Lock[]): PlannedLocks => {
    if (locks.length === 0) return NO_LOCKS;
    let view = shown.get(locks);
    if (view === undefined) {
      view = Object.freeze(
        locks.map((lock) => Object.freeze({ key: lock.label, mode: lock.mode })),
      );
      shown.set(locks, view);
    }
    return view;
  };
  let position = 0;
  return prepared.map((entry): PlanEntry => {
    if (!('registered' in entry)) {
      return {
        id: entry.id,
        name: entry.name,
        runnable: false,
        error: entry.error ?? { code: 'tool_error', message: 'the call cannot run' },
        locks: NO_LOCKS,
        waitsFor: [],
      };
    }
    const index = position;
    position += 1;
    return {
      id: entry.id,
      name: entry.name,
      runnable: true,
      origin: entry.origin,
      class: entry.class,
      resourceKeys: entry.resourceKeys,
      locks: show(schedulable[index]?.locks ?? []),
      waitsFor: waits[index] ?? [],
    };
  });
}
