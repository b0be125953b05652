import { getRandomValues } from 'node:crypto';

/**
 * The ids of a batch's calls seen so far, to find a repeated one. Calls are added in
 * order, each with its index.
 */
export interface BatchIds {
  /** Adds call `index`'s id; returns the index of an earlier call with that id, else -1. */
  add(id: string, index: number): number;
  /** Lets go of what the ids were kept in; the ids are not to be added to after. */
  release(): void;
}

/** Batches up to this many calls keep their ids in a `Set`. */
export const SET_UP_TO = 4096;
/** Probes after which an id table gives up hashing and moves its ids to a `Set`. */
const MAX_PROBES = 48;
/** The largest table kept for the next big batch: 2^18 slots (2 MiB). */
const KEPT_SLOTS = 1 << 18;

/** Per process, so that which ids collide cannot be known from outside it. */
const SEED = getRandomValues(new Uint32Array(1))[0] as number;

/** A 32-bit hash of `id`, seeded; never 0 (0 marks an empty slot). */
export function idHash(id: string, seed: number): number {
  let hash = seed ^ id.length;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash === 0 ? 1 : hash;
}

/**
 * A batch's ids in a `Set`. The first index of a repeated id is looked up in the batch
 * when it is found, not kept for every call.
 */
class SetIds implements BatchIds {
  readonly #seen = new Set<string>();
  readonly #idOf: (index: number) => string;

  constructor(idOf: (index: number) => string) {
    this.#idOf = idOf;
  }

  add(id: string, index: number): number {
    const before = this.#seen.size;
    // One lookup: the set grows unless the id was in it.
    this.#seen.add(id);
    if (this.#seen.size > before) return -1;
    for (let earlier = 0; earlier < index; earlier += 1) {
      if (this.#idOf(earlier) === id) return earlier;
    }
    return -1;
  }

  release(): void {}
}

/** The table the last big batch released, for the next one; `undefined` while one has it. */
let spare: Int32Array | undefined;

/**
 * A big batch's ids in an open-addressed table of (hash, index + 1) pairs, sized for the
 * batch at the start. A `Set` grows with the batch, by allocations apart from the heap's
 * pages once big, each copied into the next, and looks at the id strings it holds on each
 * collision: at 100,000 ids it costs about ten times as much per id as at 1,000. The table
 * compares hashes, and an id only when they are equal. Its memory is kept for the next big
 * batch up to {@link KEPT_SLOTS} slots, and cleared as it is given back.
 *
 * The hash is seeded per process, so ids chosen to collide cannot be made from outside;
 * should an id still probe more than {@link MAX_PROBES} slots, the table moves every id so
 * far to a `Set` and goes on with it, so that no choice of ids costs more than a `Set` does.
 */
class TableIds implements BatchIds {
  readonly #idOf: (index: number) => string;
  readonly #seed: number;
  readonly #maxProbes: number;
  #table: Int32Array | undefined;
  readonly #mask: number;
  #set: SetIds | undefined;

  constructor(size: number, idOf: (index: number) => string, seed: number, maxProbes: number) {
    this.#idOf = idOf;
    this.#seed = seed;
    this.#maxProbes = maxProbes;
    let slots = 1024;
    while (slots < size * 2) slots *= 2;
    this.#mask = slots - 1;
    if (spare !== undefined && spare.length >= slots * 2) {
      this.#table = spare;
      spare = undefined;
    } else {
      this.#table = new Int32Array(slots * 2);
    }
  }

  add(id: string, index: number): number {
    if (this.#set !== undefined) return this.#set.add(id, index);
    const table = this.#table as Int32Array;
    const hash = idHash(id, this.#seed);
    let slot = hash & this.#mask;
    for (let probe = 0; probe <= this.#maxProbes; probe += 1) {
      const at = slot * 2;
      const found = table[at] as number;
      if (found === 0) {
        table[at] = hash;
        table[at + 1] = index + 1;
        return -1;
      }
      if (found === hash) {
        const earlier = (table[at + 1] as number) - 1;
        if (this.#idOf(earlier) === id) return earlier;
      }
      slot = (slot + 1) & this.#mask;
    }
    return this.#toSet(index).add(id, index);
  }

  release(): void {
    const table = this.#table;
    this.#table = undefined;
    if (table === undefined || table.length > KEPT_SLOTS * 2) return;
    table.fill(0, 0, (this.#mask + 1) * 2);
    if (spare === undefined || spare.length < table.length) spare = table;
  }

  /** Moves the ids of calls before `index` to a `Set`, for the rest of the batch. */
  #toSet(index: number): SetIds {
    const set = new SetIds(this.#idOf);
    for (let earlier = 0; earlier < index; earlier += 1) set.add(this.#idOf(earlier), earlier);
    this.release();
    this.#set = set;
    return set;
  }
}

/**
 * The ids of a batch of `size` calls, for finding a repeated one; `idOf(index)` reads an
 * earlier call's id back. `seed` and `maxProbes` are for tests.
 */
export function batchIdSet(
  size: number,
  idOf: (index: number) => string,
  options: { seed?: number; maxProbes?: number } = {},
): BatchIds {
  if (size <= SET_UP_TO && options.seed === undefined) return new SetIds(idOf);
  return new TableIds(size, idOf, options.seed ?? SEED, options.maxProbes ?? MAX_PROBES);
}
