/**
 * A memory of computed values by an outer and an inner key, holding at most `limit` entries
 * in all: when full, it forgets everything and starts over (no eviction order to keep).
 * A value is kept from the second time it is set for the same keys: keys met once (a call
 * on a new file, a model's one-off argument) leave only a mark that they were met, not the
 * value, so a stream of keys that never repeat does not fill the memory with values that
 * outlive many calls for nothing (and that the garbage collector then copies and keeps).
 */
export interface BoundedMemo<O, V> {
  /** The value remembered for `outer` and `inner`, if any. */
  get(outer: O, inner: string): V | undefined;
  /**
   * Offers `value` for `outer` and `inner`: remembered if these keys were offered before
   * since the memory last started over (first forgetting everything when full), else only
   * marked as met.
   */
  set(outer: O, inner: string, value: V): void;
}

/** A {@link BoundedMemo} of at most `limit` entries, and at most `limit` keys marked as met. */
export function boundedMemo<O, V>(limit: number): BoundedMemo<O, V> {
  const byOuter = new Map<O, Map<string, V>>();
  const metByOuter = new Map<O, Set<string>>();
  let size = 0;
  let metSize = 0;
  return {
    get: (outer, inner) => byOuter.get(outer)?.get(inner),
    set(outer, inner, value) {
      let met = metByOuter.get(outer);
      if (met === undefined || !met.has(inner)) {
        if (metSize >= limit) {
          metByOuter.clear();
          metSize = 0;
          met = undefined;
        }
        if (met === undefined) {
          met = new Set();
          metByOuter.set(outer, met);
        }
        met.add(inner);
        metSize += 1;
        return;
      }
      if (size >= limit) {
        byOuter.clear();
        size = 0;
      }
      let known = byOuter.get(outer);
      if (known === undefined) {
        known = new Map();
        byOuter.set(outer, known);
      }
      known.set(inner, value);
      size += 1;
    },
  };
}
