import { CONFLICTING_MODES, type Lock, locksConflict } from './lock-mode.js';

/** A call admitted into the lock manager. */
export interface LockEntry {
  /** Caller's id for the entry (the call id). */
  readonly id: string;
  readonly locks: readonly Lock[];
  /**
   * Ids of the earlier active entries this one waits for directly. Earlier conflicting
   * entries that one of these already waits for are not repeated (see {@link LockManager}).
   */
  readonly waitsFor: readonly string[];
}

interface Entry extends LockEntry {
  readonly seq: number;
  pending: number;
  released: boolean;
  /** Seq of the last entry admitted that counted this one among its blockers. */
  blockedBy: number;
  /** Emptied on release, so a released entry keeps no other entry alive. */
  readonly blockers: Entry[];
  /** Emptied on release (see {@link Entry.blockers}). */
  readonly dependents: Entry[];
  readonly onReady: () => void;
}

/**
 * Holders of one node by mode, in admission order. Released holders stay in the lists as
 * tombstones (skipped by scans) until they outnumber the live ones; then the lists are
 * compacted, so releasing costs amortized constant time in any order.
 */
interface NodeHolders {
  X: Entry[];
  IS: Entry[];
  IX: Entry[];
  S: Entry[];
  live: number;
  dead: number;
}

/** The latest holder of a list that is not released. */
const lastLive = (list: readonly Entry[]): Entry | undefined => {
  for (let index = list.length - 1; index >= 0; index -= 1) {
    const entry = list[index] as Entry;
    if (!entry.released) return entry;
  }
  return undefined;
};

const compact = (holders: NodeHolders): void => {
  const live = (entry: Entry): boolean => !entry.released;
  holders.X = holders.X.filter(live);
  holders.IS = holders.IS.filter(live);
  holders.IX = holders.IX.filter(live);
  holders.S = holders.S.filter(live);
  holders.dead = 0;
};

/**
 * Multi-granularity lock manager with admission order. An entry waits for every earlier
 * active entry whose locks conflict with its own, and for nothing else: later entries
 * never block earlier ones, so conflicting calls run in admission order and independent
 * calls overlap. Calls admitted over time (a gateway) follow the same rule.
 *
 * Waits are kept transitively reduced so a long queue on one key costs linear time: on a
 * node, an entry waits for the latest exclusive holder and for the conflicting holders
 * admitted after it, since the exclusive holder already waits for everything before it.
 * When an entry is released before it was ready (its call was cancelled while queued),
 * the entries that waited for it inherit what it still waited for, so the order holds.
 */
export class LockManager {
  readonly #nodes = new Map<string, NodeHolders>();
  #active = 0;
  #seq = 0;

  /** Number of admitted entries not yet released. */
  get size(): number {
    return this.#active;
  }

  /**
   * Admits an entry. `onReady` runs (synchronously if nothing conflicts) once every
   * conflicting earlier entry is released.
   */
  admit(id: string, locks: readonly Lock[], onReady: () => void): LockEntry {
    const seq = this.#seq++;
    const blockers: Entry[] = [];
    // One holder can conflict on several nodes; a mark, not a search, keeps it listed once.
    const block = (holder: Entry): void => {
      if (holder.blockedBy === seq) return;
      holder.blockedBy = seq;
      blockers.push(holder);
    };
    for (const lock of locks) {
      const holders = this.#nodes.get(lock.node);
      if (holders === undefined) continue;
      const lastExclusive = lastLive(holders.X);
      const floor = lastExclusive?.seq ?? -1;
      if (lastExclusive !== undefined) block(lastExclusive);
      for (const mode of CONFLICTING_MODES[lock.mode]) {
        if (mode === 'X') continue;
        const list = holders[mode];
        for (let index = list.length - 1; index >= 0; index -= 1) {
          const holder = list[index] as Entry;
          if (holder.seq < floor) break;
          if (!holder.released) block(holder);
        }
      }
    }
    const entry: Entry = {
      id,
      locks,
      seq,
      waitsFor: blockers.map((blocker) => blocker.id),
      pending: blockers.length,
      released: false,
      blockedBy: -1,
      blockers,
      dependents: [],
      onReady,
    };
    for (const blocker of blockers) blocker.dependents.push(entry);
    for (const lock of locks) {
      const holders = this.#holders(lock.node);
      holders[lock.mode].push(entry);
      holders.live += 1;
    }
    this.#active += 1;
    if (entry.pending === 0) onReady();
    return entry;
  }

  /**
   * Releases an entry's locks (whether it ran or not); entries that waited only for it
   * become ready. Releasing twice is a no-op.
   */
  release(handle: LockEntry): void {
    const entry = handle as Entry;
    if (entry.released) return;
    entry.released = true;
    this.#active -= 1;
    for (const lock of entry.locks) {
      const holders = this.#nodes.get(lock.node);
      if (holders === undefined) continue;
      holders.live -= 1;
      holders.dead += 1;
      if (holders.live === 0) this.#nodes.delete(lock.node);
      else if (holders.dead > holders.live) compact(holders);
    }
    if (entry.pending > 0) this.#handOver(entry);
    const { dependents } = entry;
    for (const dependent of dependents) {
      if (dependent.released) continue;
      dependent.pending -= 1;
      if (dependent.pending === 0) dependent.onReady();
    }
    // A released entry is never asked again: emptied, its lists let the entries it waited
    // for and the ones that waited for it die young, instead of chaining every entry of a
    // long batch together until the batch ends.
    entry.blockers.length = 0;
    dependents.length = 0;
  }

  /**
   * Makes the dependents of an entry released while waiting wait for those of its
   * blockers they conflict with: the ones it hid from them. (Only an exclusive holder hides
   * earlier entries, and an exclusive holder conflicts with every dependent on its node.)
   */
  #handOver(entry: Entry): void {
    for (const blocker of entry.blockers) {
      if (blocker.released) continue;
      for (const dependent of entry.dependents) {
        if (dependent.released || dependent.blockers.includes(blocker)) continue;
        if (!locksConflict(blocker.locks, dependent.locks)) continue;
        dependent.blockers.push(blocker);
        blocker.dependents.push(dependent);
        dependent.pending += 1;
      }
    }
  }

  #holders(node: string): NodeHolders {
    let holders = this.#nodes.get(node);
    if (holders === undefined) {
      holders = { X: [], IS: [], IX: [], S: [], live: 0, dead: 0 };
      this.#nodes.set(node, holders);
    }
    return holders;
  }
}
