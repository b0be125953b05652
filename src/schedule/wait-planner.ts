import { CONFLICTING_MODES, type Lock, type LockMode } from './lock-mode.js';

/** A node's holders as a plan sees them: the latest exclusive one and those after it. */
interface PlannedNode {
  /** Index of the latest call holding the node `X`, or -1. */
  lastExclusive: number;
  /**
   * Calls holding it in each other mode since then, in call order (an `X` starts new
   * lists); `undefined` while there are none, so that a node held in one mode (most are)
   * makes one list, not three.
   */
  S: number[] | undefined;
  IS: number[] | undefined;
  IX: number[] | undefined;
}

const NO_WAITS: readonly string[] = Object.freeze([]);
/** How many lock sets a planner remembers the nodes of. */
const LOCK_SETS_REMEMBERED = 4096;

type HolderList = 'S' | 'IS' | 'IX';

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
 * Plans the waits of calls given one at a time, in call order (see `planWaits`): for each
 * call, the ids of the earlier calls it waits for directly. Nothing is released while
 * planning, so a node needs only its latest exclusive holder and the holders since (an `X`
 * empties the node's other lists): the planner keeps a few numbers per lock and each call's
 * id, not an entry per call. The lists are frozen: calls that wait for nothing share one
 * empty list, and calls that wait for the same one call (the reads after one write) share
 * one list of its id.
 */
export class WaitPlanner {
  readonly #nodes = new Map<string, PlannedNode>();
  readonly #byLockSet = new Map<readonly Lock[], readonly PlannedNode[]>();
  readonly #ids: string[] = [];
  /** `#marks[i] === j + 1`: call i is already among call j's waits. */
  #marks = new Int32Array(1024);
  /** The waits found for the call being added: the first `#count` elements. */
  #found = new Int32Array(64);
  #count = 0;
  /**
   * `#alone[i]`: the frozen list of call i's id alone, made the first time a call waits for
   * call i only and shared by every later call that does (the reads after one write).
   */
  readonly #alone: (readonly string[] | undefined)[] = [];

  /** Adds the next call; returns the ids of the earlier calls it waits for, in call order. */
  add(id: string, locks: readonly Lock[]): readonly string[] {
    const j = this.#ids.length;
    this.#ids.push(id);
    this.#alone.push(undefined);
    if (j >= this.#marks.length) {
      const grown = new Int32Array(this.#marks.length * 2);
      grown.set(this.#marks);
      this.#marks = grown;
    }
    this.#count = 0;
    const nodes = this.#nodesOf(locks);
    for (let k = 0; k < locks.length; k += 1) {
      const node = nodes[k] as PlannedNode;
      if (node.lastExclusive >= 0) this.#mark(node.lastExclusive, j);
      for (const mode of OTHER_CONFLICTS[(locks[k] as Lock).mode]) {
        const holders = node[mode];
        if (holders !== undefined) for (const index of holders) this.#mark(index, j);
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
      } else {
        const holders = node[mode];
        if (holders === undefined) node[mode] = [j];
        else holders.push(j);
      }
    }
    const count = this.#count;
    if (count === 0) return NO_WAITS;
    if (count === 1) return this.#aloneOf(this.#found[0] as number);
    // In call order, whatever order the locks found them in (a typed array sorts numbers).
    const found = this.#found.subarray(0, count).sort();
    const ids: string[] = [];
    for (const index of found) ids.push(this.#ids[index] as string);
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
        node = { lastExclusive: -1, S: undefined, IS: undefined, IX: undefined };
        this.#nodes.set(lock.node, node);
      }
      return node;
    });
    if (this.#byLockSet.size < LOCK_SETS_REMEMBERED) this.#byLockSet.set(locks, nodes);
    return nodes;
  }

  /** The shared frozen list of call `index`'s id alone. */
  #aloneOf(index: number): readonly string[] {
    let list = this.#alone[index];
    if (list === undefined) {
      list = Object.freeze([this.#ids[index] as string]);
      this.#alone[index] = list;
    }
    return list;
  }

  #mark(index: number, j: number): void {
    if (this.#marks[index] === j + 1) return;
    this.#marks[index] = j + 1;
    if (this.#count === this.#found.length) {
      const grown = new Int32Array(this.#found.length * 2);
      grown.set(this.#found);
      this.#found = grown;
    }
    this.#found[this.#count] = index;
    this.#count += 1;
  }
}
