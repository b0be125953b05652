import { CONFLICTING_MODES, type Lock, locksConflict } from './lock-mode.js';

/** A call admitted into the lock manager. */
export interface LockEntry {
  /** Caller's id for the entry (the call id). */
  readonly id: string;
  readonly locks: readonly Lock[];
  /**
   * Ids of the earlier active entries this one waited for directly when it was admitted,
   * in the order found. Earlier conflicting entries that one of these already waits for are
   * not repeated (see {@link LockManager}). With `keepWaits: false`, made when read instead,
   * from the entries it still waits for (none once it is released or ready).
   */
  readonly waitsFor: readonly string[];
}

/** Options of {@link LockManager}. */
export interface LockManagerOptions {
  /**
   * Keep each entry's `waitsFor` as it was at admission. `false` keeps no list of ids per
   * entry (for a scheduler that never reads them): `waitsFor` is made when read. Default true.
   */
  readonly keepWaits?: boolean;
}

const NO_WAITS: readonly string[] = Object.freeze([]);

/** The empty list of every entry without blockers or dependents: never added to. */
const NO_ENTRIES: Entry[] = [];

/**
 * `list` with `item` added. A short list is copied to one of its exact length: pushing onto
 * an array reserves room for 16 more, which a batch of many waiting calls would pay per list.
 */
const append = (list: Entry[], item: Entry): Entry[] => {
  if (list.length >= 8) {
    list.push(item);
    return list;
  }
  // concat makes an array of the exact length; spreading into a literal may not.
  return list.concat(item);
};

/** An admitted entry: a class, so that every entry has one compact shape. */
class Entry implements LockEntry {
  readonly id: string;
  readonly locks: readonly Lock[];
  readonly seq: number;
  pending: number;
  released = false;
  /** Seq of the last entry admitted that counted this one among its blockers. */
  blockedBy = -1;
  /** Emptied on release, so a released entry keeps no other entry alive. */
  blockers: Entry[];
  /** Emptied on release (see {@link Entry.blockers}). */
  dependents: Entry[] = NO_ENTRIES;
  /** Called with {@link owner} once the entry is ready. */
  readonly onReady: (owner: unknown) => void;
  /**
   * Dropped on release: a released entry can stay listed on its nodes for a while (see
   * `NodeHolders`), and should not keep its call's state alive meanwhile.
   */
  owner: unknown;
  /** `waitsFor` as at admission; `undefined` when not kept (see {@link LockManagerOptions}). */
  readonly #waits: readonly string[] | undefined;

  constructor(
    id: string,
    locks: readonly Lock[],
    seq: number,
    blockers: Entry[],
    onReady: (owner: unknown) => void,
    owner: unknown,
    keepWaits: boolean,
  ) {
    this.id = id;
    this.locks = locks;
    this.seq = seq;
    this.blockers = blockers;
    this.pending = blockers.length;
    this.onReady = onReady;
    this.owner = owner;
    this.#waits = !keepWaits
      ? undefined
      : blockers.length === 0
        ? NO_WAITS
        : blockers.map((blocker) => blocker.id);
  }

  get waitsFor(): readonly string[] {
    if (this.#waits !== undefined) return this.#waits;
    if (this.pending === 0) return NO_WAITS;
    return this.blockers.filter((blocker) => !blocker.released).map((blocker) => blocker.id);
  }
}

/** How many nodes none holds a lock manager keeps for the next calls on them (see `#free`). */
const IDLE_NODES_KEPT = 1024;
/** How many nodes held by one call so far a lock manager keeps, none holding them (see `#free`). */
const NEW_NODES_KEPT = 256;

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
  /** Held by a second call since it was made (see `LockManager#free`). */
  reused: boolean;
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
  readonly #keepWaits: boolean;
  readonly #nodes = new Map<string, NodeHolders>();
  /** The blockers found by the admission under way, copied out at its end. */
  readonly #found: Entry[] = [];
  /** Lists of a node forgotten, for the next new one (see `#free`). */
  #spare: NodeHolders | undefined = undefined;
  /** Nodes in `#nodes` that none holds, of those held by more than one call (see `#free`). */
  #idle = 0;
  /** Names of nodes none holds that one call held so far, in the order freed (see `#free`). */
  #fresh: string[] = [];
  #active = 0;
  #seq = 0;

  constructor(options: LockManagerOptions = {}) {
    this.#keepWaits = options.keepWaits ?? true;
  }

  /** Number of admitted entries not yet released. */
  get size(): number {
    return this.#active;
  }

  /**
   * Admits an entry. `onReady` runs with `owner` (synchronously if nothing conflicts) once
   * every conflicting earlier entry is released: one function can serve every entry, so
   * admitting makes no closure per entry.
   */
  admit<T>(id: string, locks: readonly Lock[], onReady: (owner: T) => void, owner?: T): LockEntry {
    const seq = this.#seq++;
    const found = this.#found;
    if (found.length > 0) found.length = 0;
    for (const lock of locks) {
      const holders = this.#nodes.get(lock.node);
      if (holders === undefined) continue;
      const lastExclusive = lastLive(holders.X);
      const floor = lastExclusive?.seq ?? -1;
      if (lastExclusive !== undefined) this.#block(lastExclusive, seq);
      for (const mode of CONFLICTING_MODES[lock.mode]) {
        if (mode === 'X') continue;
        const list = holders[mode];
        for (let index = list.length - 1; index >= 0; index -= 1) {
          const holder = list[index] as Entry;
          if (holder.seq < floor) break;
          if (!holder.released) this.#block(holder, seq);
        }
      }
    }
    const blockers = found.length === 0 ? NO_ENTRIES : found.slice();
    if (found.length > 0) found.length = 0;
    const entry = new Entry(
      id,
      locks,
      seq,
      blockers,
      onReady as (owner: unknown) => void,
      owner,
      this.#keepWaits,
    );
    for (const blocker of blockers) blocker.dependents = append(blocker.dependents, entry);
    for (const lock of locks) {
      const holders = this.#holders(lock.node);
      holders[lock.mode].push(entry);
      holders.live += 1;
    }
    this.#active += 1;
    if (entry.pending === 0) onReady(owner as T);
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
      if (holders.live === 0) this.#free(lock.node, holders);
      else if (holders.dead > holders.live) compact(holders);
    }
    if (entry.pending > 0) this.#handOver(entry);
    const { dependents } = entry;
    // A released entry is never asked again: emptied, its lists let the entries it waited
    // for and the ones that waited for it die young, instead of chaining every entry of a
    // long batch together until the batch ends.
    entry.blockers = NO_ENTRIES;
    entry.dependents = NO_ENTRIES;
    entry.owner = undefined;
    for (const dependent of dependents) {
      if (dependent.released) continue;
      dependent.pending -= 1;
      if (dependent.pending === 0) dependent.onReady(dependent.owner);
    }
  }

  /**
   * Makes the dependents of an entry released while waiting wait for those of its
   * blockers they conflict with: the ones it hid from them. (Only an exclusive holder hides
   * earlier entries, and an exclusive holder conflicts with every dependent on its node.)
   */
  #handOver(entry: Entry): void {
    const { dependents } = entry;
    for (const blocker of entry.blockers) {
      if (blocker.released) continue;
      for (const dependent of dependents) {
        if (dependent.released || dependent.blockers.includes(blocker)) continue;
        if (!locksConflict(blocker.locks, dependent.locks)) continue;
        dependent.blockers = append(dependent.blockers, blocker);
        blocker.dependents = append(blocker.dependents, dependent);
        dependent.pending += 1;
      }
    }
  }

  /** Lists `holder` among the blockers found; one holder can conflict on several nodes. */
  #block(holder: Entry, seq: number): void {
    // A mark, not a search, keeps it listed once.
    if (holder.blockedBy === seq) return;
    holder.blockedBy = seq;
    this.#found.push(holder);
  }

  #holders(node: string): NodeHolders {
    let holders = this.#nodes.get(node);
    if (holders === undefined) {
      holders = this.#spare ?? { X: [], IS: [], IX: [], S: [], live: 0, dead: 0, reused: false };
      this.#spare = undefined;
      this.#nodes.set(node, holders);
      return holders;
    }
    if (holders.live === 0 && holders.reused) this.#idle -= 1;
    holders.reused = true;
    return holders;
  }

  /**
   * Empties a node none holds any more, and keeps it: the next call on the node (the same
   * origin or key, call after call) finds it as it is, with no map insert and delete per
   * call. Nodes held by one call so far (a call on a new file, say) are kept apart: once
   * {@link NEW_NODES_KEPT} of them are idle, those still idle and held by no second call are
   * forgotten, so that a stream of keys that never repeat keeps no node long (the garbage
   * collector would copy and keep it) and makes little garbage (a forgotten node's lists
   * serve the next new one). Once more than {@link IDLE_NODES_KEPT} of the other nodes are
   * idle, and at least as many as are held, they are all forgotten: the nodes kept are
   * those held plus at most that many or as many again, and each pass that forgets nodes
   * looks at no more than twice as many as it forgets.
   */
  #free(node: string, holders: NodeHolders): void {
    const { X, IS, IX, S } = holders;
    if (X.length > 0) X.length = 0;
    if (IS.length > 0) IS.length = 0;
    if (IX.length > 0) IX.length = 0;
    if (S.length > 0) S.length = 0;
    holders.dead = 0;
    if (!holders.reused) {
      this.#fresh.push(node);
      if (this.#fresh.length >= NEW_NODES_KEPT) this.#forgetFresh();
      return;
    }
    this.#idle += 1;
    if (this.#idle <= IDLE_NODES_KEPT || this.#idle * 2 < this.#nodes.size) return;
    for (const [name, kept] of this.#nodes) {
      if (kept.live > 0) continue;
      this.#nodes.delete(name);
      kept.reused = false;
      this.#spare = kept;
    }
    this.#idle = 0;
    this.#fresh = [];
  }

  /** Forgets the nodes freed while held by one call only that are still so. */
  #forgetFresh(): void {
    for (const name of this.#fresh) {
      const holders = this.#nodes.get(name);
      if (holders === undefined || holders.live > 0 || holders.reused) continue;
      this.#nodes.delete(name);
      this.#spare = holders;
    }
    this.#fresh = [];
  }
}
