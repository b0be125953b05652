import { CONFLICTING_MODES, type Lock } from './lock-mode.js';

/** A node's holders as a plan sees them: the latest exclusive one and those after it. */
interface PlannedNode {
  /** Index of the latest call holding the node `X`, or -1. */
  lastExclusive: number;
  /** Calls holding it in each other mode since then, in call order. */
  readonly S: number[];
  readonly IS: number[];
  readonly IX: number[];
}

const NO_WAITS: readonly string[] = Object.freeze([]);

/**
 * For calls in order, the ids of the earlier calls each waits for directly, as the lock
 * manager would queue them if they arrived together with nothing else under way: on each
 * node it locks, the latest earlier call holding it exclusively (`X`) and the conflicting
 * calls after that one. An earlier conflicting call that one of these already waits for is
 * not repeated, so every call waits for a short list and the plan costs time linear in the
 * calls and the waits kept. Every earlier call a call conflicts with is in the transitive
 * closure of its waits (the closure may also hold calls it is ordered after only through
 * others). Each list is in call order. Runs nothing.
 *
 * Nothing is released while planning, so a node needs only its latest exclusive holder and
 * the holders since: an `X` empties the node's other lists, and what a plan keeps is a few
 * numbers per lock, not an entry per call. Calls that wait for nothing share one empty list.
 */
export function planWaits(
  calls: ReadonlyArray<{ readonly id: string; readonly locks: readonly Lock[] }>,
): (readonly string[])[] {
  const nodes = new Map<string, PlannedNode>();
  // marks[i] === j + 1: call i is already among call j's waits.
  const marks = new Int32Array(calls.length);
  const found: number[] = [];
  const mark = (index: number, j: number): void => {
    if (marks[index] === j + 1) return;
    marks[index] = j + 1;
    found.push(index);
  };
  const waits: (readonly string[])[] = new Array(calls.length);
  for (let j = 0; j < calls.length; j += 1) {
    const { locks } = calls[j] as (typeof calls)[number];
    found.length = 0;
    for (const lock of locks) {
      const node = nodes.get(lock.node);
      if (node === undefined) continue;
      if (node.lastExclusive >= 0) mark(node.lastExclusive, j);
      for (const mode of CONFLICTING_MODES[lock.mode]) {
        if (mode === 'X') continue;
        for (const index of node[mode]) mark(index, j);
      }
    }
    // Registered once every lock is looked at: a call never waits for itself.
    for (const lock of locks) {
      let node = nodes.get(lock.node);
      if (node === undefined) {
        node = { lastExclusive: -1, S: [], IS: [], IX: [] };
        nodes.set(lock.node, node);
      }
      if (lock.mode === 'X') {
        node.lastExclusive = j;
        node.S.length = 0;
        node.IS.length = 0;
        node.IX.length = 0;
      } else {
        node[lock.mode].push(j);
      }
    }
    if (found.length === 0) waits[j] = NO_WAITS;
    else {
      // In call order, whatever order the locks found them in.
      if (found.length > 1) found.sort((a, b) => a - b);
      waits[j] = found.map((index) => (calls[index] as (typeof calls)[number]).id);
    }
  }
  return waits;
}
