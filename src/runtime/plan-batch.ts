import type { Lock } from '../schedule/index.js';
import { planWaits } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import type { Prepared, PreparedCall } from './prepare-call.js';
import type { PlanEntry } from './runtime.js';
import type { ToolCall } from './tool-call.js';

type PlannedLocks = PlanEntry['locks'];
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const NO_LOCKS: PlannedLocks = Object.freeze([]);
const NO_WAITS: readonly string[] = Object.freeze([]);

/** A call that can run, as the plan keeps it until its waits are known. */
interface Schedulable {
  readonly id: string;
  readonly locks: readonly Lock[];
  readonly entry: Mutable<PlanEntry>;
}

/**
 * The plan of a batch: prepares each call, and gives for each whether it can run, its
 * class and locks, and the ids of the earlier calls it would wait for directly (see
 * `planWaits`). Runs nothing. A call's plan entry is made as soon as it is prepared, so the
 * prepared call (validated arguments, approval keys) is not kept for the whole batch; calls
 * with the same lock set (the runtime's lock sets are shared, see `memoCallLocks`) share one
 * frozen list of their locks. Answers at once unless a call prepares asynchronously.
 */
export function planBatch(
  calls: readonly ToolCall[],
  prepare: (call: ToolCall) => Prepared | Promise<Prepared>,
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
  const entries: PlanEntry[] = new Array(calls.length);
  // Schedulable calls by position in the batch (a gap for one that cannot run).
  const schedulable: (Schedulable | undefined)[] = new Array(calls.length);
  const place = (index: number, prepared: Prepared): void => {
    if (!('registered' in prepared)) {
      entries[index] = unrunnable(prepared);
      return;
    }
    const locks = locksOf(prepared);
    const entry: Mutable<PlanEntry> = {
      id: prepared.id,
      name: prepared.name,
      runnable: true,
      origin: prepared.origin,
      class: prepared.class,
      resourceKeys: prepared.resourceKeys,
      locks: show(locks),
      waitsFor: NO_WAITS,
    };
    entries[index] = entry;
    schedulable[index] = { id: prepared.id, locks, entry };
  };
  const later: Promise<void>[] = [];
  for (let index = 0; index < calls.length; index += 1) {
    const prepared = prepare(calls[index] as ToolCall);
    if (prepared instanceof Promise) later.push(prepared.then((ready) => place(index, ready)));
    else place(index, prepared);
  }
  const finish = (): PlanEntry[] => {
    const ordered = schedulable.filter((call): call is Schedulable => call !== undefined);
    const waits = planWaits(ordered);
    for (let position = 0; position < ordered.length; position += 1) {
      (ordered[position] as Schedulable).entry.waitsFor = waits[position] ?? NO_WAITS;
    }
    return entries;
  };
  // Most calls prepare at once: one promise per call only when one of them needs it.
  return later.length === 0 ? finish() : Promise.all(later).then(finish);
}

const unrunnable = (result: CallResult): PlanEntry => ({
  id: result.id,
  name: result.name,
  runnable: false,
  error: result.error ?? { code: 'tool_error', message: 'the call cannot run' },
  locks: NO_LOCKS,
  waitsFor: [],
});
