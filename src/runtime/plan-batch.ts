import type { Lock } from '../schedule/index.js';
import { planWaits } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import type { PreparedCall } from './prepare-call.js';
import type { PlanEntry } from './runtime.js';

/**
 * The plan of a prepared batch: for each call, whether it can run, its class and locks,
 * and the ids of the earlier calls it would wait for directly (see `planWaits`). Runs nothing.
 */
export function planBatch(
  prepared: ReadonlyArray<PreparedCall | CallResult>,
  locksOf: (call: PreparedCall) => readonly Lock[],
): PlanEntry[] {
  const schedulable = prepared.filter((entry): entry is PreparedCall => 'registered' in entry);
  const locks = schedulable.map(locksOf);
  const waits = planWaits(
    schedulable.map((call, index) => ({ id: call.id, locks: locks[index] ?? [] })),
  );
  let position = 0;
  return prepared.map((entry): PlanEntry => {
    if (!('registered' in entry)) {
      return {
        id: entry.id,
        name: entry.name,
        runnable: false,
        error: entry.error ?? { code: 'tool_error', message: 'the call cannot run' },
        locks: [],
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
      locks: (locks[index] ?? []).map((lock) => ({ key: lock.label, mode: lock.mode })),
      waitsFor: waits[index] ?? [],
    };
  });
}
