/**
 * A memory of computed values by an outer and an inner key, holding at most `limit` entries
 * in all: when full, it forgets everything and starts over (no eviction order to keep).
 */
export interface BoundedMemo<O, V> {
  /** The value remembered for `outer` and `inner`, if any. */
  get(outer: O, inner: string): V | undefined;
  /** Remembers `value` for `outer` and `inner`, first forgetting everything when full. */
  set(outer: O, inner: string, value: V): void;
}

/** A {@link BoundedMemo} of at most `limit` entries. */
export function boundedMemo<O, V>(limit: number): BoundedMemo<O, V> {
  const byOuter = new Map<O, Map<string, V>>();
  let size = 0;
  return {
    get: (outer, inner) => byOuter.get(outer)?.get(inner),
    set(outer, inner, value) {
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
