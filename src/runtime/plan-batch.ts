import type { Lock } from '../schedule/index.js';
import { WaitPlanner } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import type { Prepared, PreparedCall } from './prepare-call.js';
import type { PlanEntry } from './runtime.js';

type PlannedLocks = PlanEntry['locks'];

const NO_LOCKS: PlannedLocks = Object.freeze([]);
/** The locks of a call that cannot run. */
const NONE: readonly Lock[] = Object.freeze([]);

/**
 * The plan of a batch of `count` calls: prepares each (`prepare(index)`, which may throw
 * for a call the caller got wrong), and gives for each whether it can run, its
 * class and locks, and the ids of the earlier calls it would wait for directly (see
 * `planWaits`). Runs nothing. A call's plan entry, waits included, is made as soon as it is
 * prepared (`WaitPlanner`), so the prepared call (validated arguments, approval keys) is not
 * kept for the whole batch; calls with the same lock set (the runtime's lock sets are
 * shared, see `memoCallLocks`) share one frozen list of their locks. Answers at once unless a
 * call prepares asynchronously.
 */
export function planBatch(
  count: number,
  prepare: (index: number) => Prepared | Promise<Prepared>,
  locksOf: (call: PreparedCall) => readonly Lock[],
): PlanEntry[] | Promise<PlanEntry[]> {
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
  // Entries are placed in call order (see below), into an array made at the batch's size:
  // one that grows is copied into fresh memory each time it fills.
  const entries = new Array<PlanEntry>(count);
  let placed = 0;
  const planner = new WaitPlanner((index) => (entries[index] as PlanEntry).id, count);
  const place = (prepared: Prepared): void => {
    if (!('registered' in prepared)) {
      planner.add(NONE);
      entries[placed++] = unrunnable(prepared);
      return;
    }
    const locks = locksOf(prepared);
    entries[placed++] = {
      id: prepared.id,
      name: prepared.name,
      runnable: true,
      origin: prepared.origin,
      class: prepared.class,
      resourceKeys: prepared.resourceKeys,
      locks: show(locks),
      waitsFor: planner.add(locks),
    };
  };
  // Calls are planned in call order as they are prepared; from the first that prepares
  // asynchronously on, they wait for every earlier one (one promise per call only then).
  let later: Promise<void> | undefined;
  for (let index = 0; index < count; index += 1) {
    const prepared = prepare(index);
    if (later === undefined && !(prepared instanceof Promise)) {
      place(prepared);
      continue;
    }
    const before = later;
    later = Promise.all([before, prepared]).then(([, ready]) => place(ready));
  }
  return later === undefined ? entries : later.then(() => entries);
}

const unrunnable = (result: CallResult): PlanEntry => ({
  id: result.id,
  name: result.name,
  runnable: false,
  error: result.error ?? { code: 'tool_error', message: 'the call cannot run' },
  locks: NO_LOCKS,
  waitsFor: [],
});
