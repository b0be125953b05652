import { CONFLICTING_MODES, type Lock, type LockMode } from './lock-mode.js';

type HolderList = 'S' | 'IS' | 'IX';

/** A node's holders as a plan sees them: the latest exclusive one and those after it. */
interface PlannedNode {
  /** Index of the latest call holding the node `X`, or -1. */
  lastExclusive: number;
  /**
   * Calls holding it in each other mode since then, in call order (an `X` starts new
   * lists); `undefined` while there are none, so that a node held in one mode (most are)
   * makes one list, not three. At most {@link CHUNK} calls: the earlier ones are in `full`.
   */
  S: number[] | undefined;
  IS: number[] | undefined;
  IX: number[] | undefined;
  /**
   * The lists that filled, earliest first, by mode; `undefined` until one does. A list that
   * grew without bound (the intent locks a big batch takes on its origin) would be copied
   * each time it filled, into memory allocated apart from the heap's pages.
   */
  full: Partial<Record<HolderList, number[][]>> | undefined;
}

const NO_WAITS: readonly string[] = Object.freeze([]);
/**
 * Most holders a list of a node keeps before it is put aside as full: 4,096 indexes are
 * 32 KiB, well under the size from which V8 allocates an array's elements apart from its
 * heap pages (and copies them into fresh memory half again as big each time they fill).
 */
const CHUNK = 4096;
/** How many lock sets a planner remembers the nodes of. */
const LOCK_SETS_REMEMBERED = 4096;
/** Most calls whose list of their id alone a planner keeps to share (a power of 2). */
const ALONE_SLOTS = 1024;

/** The modes other than `X` that `mode` conflicts with: the holder lists to wait for. */
const others = (mode: LockMode): readonly HolderList[] =>
  CONFLICTING_MODES[mode].filter((m): m is HolderList => m !== 'X');
const OTHER_CONFLICTS: Readonly<Record<LockMode, readonly HolderList[]>> = {
  IS: others('IS'),
  IX: others('IX'),
  S: others('S'),
  X: others('X'),
};

/**
 * What one `add` finds: the marks of the calls it found, and their indexes. One for every
 * planner (`add` runs to its end before another starts), so that a planner's memory grows
 * with its own state only, not by scratch sized to its batch each time.
 */
class FoundWaits {
  /** `marks[i] === stamp`: call i is already among the waits of the call being added. */
  marks = new Int32Array(1024);
  stamp = 0;
  /** The waits found for the call being added: the first `count` elements. */
  found = new Int32Array(64);
  count = 0;

  /** Starts on the waits of call `j`. */
  start(j: number): void {
    if (j >= this.marks.length) {
      let size = this.marks.length * 2;
      while (size <= j) size *= 2;
      const grown = new Int32Array(size);
      grown.set(this.marks);
      this.marks = grown;
    }
    if (this.stamp === 0x7fffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    this.stamp += 1;
    this.count = 0;
  }

  mark(index: number): void {
    if (this.marks[index] === this.stamp) return;
    this.marks[index] = this.stamp;
    if (this.count === this.found.length) {
      const grown = new Int32Array(this.found.length * 2);
      grown.set(this.found);
      this.found = grown;
    }
    this.found[this.count] = index;
    this.count += 1;
  }

  markAll(holders: readonly number[]): void {
    for (const index of holders) this.mark(index);
  }
}

const FOUND = new FoundWaits();

/**
 * Plans the waits of calls given one at a time, in call order (see `planWaits`): for each
 * call, the ids of the earlier calls it waits for directly. Nothing is released while
 * planning, so a node needs only its latest exclusive holder and the holders since (an `X`
 * empties the node's other lists): the planner keeps a few numbers per lock, not an entry
 * per call, and reads the ids of the calls it found from its caller (`idOf`). The lists are
 * frozen: calls that wait for nothing share one empty list, and calls that wait for the
 * same one call (the reads after one write) share one list of its id, as long as it is
 * among the last {@link ALONE_SLOTS} such calls.
 */
export class WaitPlanner {
  readonly #nodes = new Map<string, PlannedNode>();
  readonly #byLockSet = new Map<readonly Lock[], readonly PlannedNode[]>();
  readonly #idOf: (index: number) => string;
  readonly #aloneSlots: number;
  #added = 0;
  /** `#aloneLists[i & (slots - 1)]`: the shared list of call i's id alone, if it is call i's. */
  #aloneIndexes: Int32Array | undefined;
  #aloneLists: (readonly string[] | undefined)[] | undefined;

  /**
   * @param idOf - the id of an earlier call, by its index in the order added.
   * @param size - how many calls the plan expects; sizes what the planner keeps to share.
   */
  constructor(idOf: (index: number) => string, size = ALONE_SLOTS) {
    this.#idOf = idOf;
    let slots = 16;
    while (slots < size && slots < ALONE_SLOTS) slots *= 2;
    this.#aloneSlots = slots;
  }

  /**
   * Adds the next call, which takes `locks` (none for a call that cannot run); returns the
   * ids of the earlier calls it waits for, in call order.
   */
  add(locks: readonly Lock[]): readonly string[] {
    const j = this.#added;
    this.#added += 1;
    if (locks.length === 0) return NO_WAITS;
    const waits = FOUND;
    waits.start(j);
    const nodes = this.#nodesOf(locks);
    for (let k = 0; k < locks.length; k += 1) {
      const node = nodes[k] as PlannedNode;
      if (node.lastExclusive >= 0) waits.mark(node.lastExclusive);
      for (const mode of OTHER_CONFLICTS[(locks[k] as Lock).mode]) {
        const holders = node[mode];
        if (holders === undefined) continue;
        const full = node.full?.[mode];
        if (full !== undefined) for (const chunk of full) waits.markAll(chunk);
        waits.markAll(holders);
      }
    }
    // Registered once every lock is looked at: a call never waits for itself.
    for (let k = 0; k < locks.length; k += 1) {
      const node = nodes[k] as PlannedNode;
      const { mode } = locks[k] as Lock;
      if (mode === 'X') {
        node.lastExclusive = j;
        node.S = undefined;
        node.IS = undefined;
        node.IX = undefined;
        node.full = undefined;
      } else {
        const holders = node[mode];
        if (holders === undefined) node[mode] = [j];
        else if (holders.length < CHUNK) holders.push(j);
        else {
          node.full ??= {};
          const full = node.full[mode];
          if (full === undefined) node.full[mode] = [holders];
          else full.push(holders);
          node[mode] = [j];
        }
      }
    }
    const { count } = waits;
    if (count === 0) return NO_WAITS;
    if (count === 1) return this.#aloneOf(waits.found[0] as number);
    // In call order, whatever order the locks found them in (a typed array sorts numbers).
    const sorted = waits.found.subarray(0, count).sort();
    // Made at its length: a list grown by pushes holds room for about twice its ids, and a
    // plan keeps every list to its end.
    const ids = new Array<string>(count);
    for (let k = 0; k < count; k += 1) ids[k] = this.#idOf(sorted[k] as number);
    return Object.freeze(ids);
  }

  /**
   * The nodes of `locks`, in their order, made on first sight. Remembered by lock set (the
   * runtime shares one lock set among the calls that take the same locks), up to a limit.
   */
  #nodesOf(locks: readonly Lock[]): readonly PlannedNode[] {
    let nodes = this.#byLockSet.get(locks);
    if (nodes !== undefined) return nodes;
    nodes = locks.map((lock) => {
      let node = this.#nodes.get(lock.node);
      if (node === undefined) {
        node = { lastExclusive: -1, S: undefined, IS: undefined, IX: undefined, full: undefined };
        this.#nodes.set(lock.node, node);
      }
      return node;
    });
    if (this.#byLockSet.size < LOCK_SETS_REMEMBERED) this.#byLockSet.set(locks, nodes);
    return nodes;
  }

  /** The frozen list of call `index`'s id alone, shared while it is kept. */
  #aloneOf(index: number): readonly string[] {
    const slot = index & (this.#aloneSlots - 1);
    this.#aloneIndexes ??= new Int32Array(this.#aloneSlots).fill(-1);
    this.#aloneLists ??= new Array<undefined>(this.#aloneSlots).fill(undefined);
    if (this.#aloneIndexes[slot] === index) return this.#aloneLists[slot] as readonly string[];
    const list = Object.freeze([this.#idOf(index)]);
    this.#aloneIndexes[slot] = index;
    this.#aloneLists[slot] = list;
    return list;
  }
}
