/**
 * A record without a prototype, filled from `entries`: every key is an own property, so a
 * key named `__proto__` is kept as data instead of replacing the prototype, and a lookup of
 * `constructor` or `toString` finds nothing unless it was set. Use it for records keyed by
 * names from outside; read them with `ownValue` all the same, since a caller may pass a
 * record of its own.
 */
export function nullRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record: Record<string, T> = Object.create(null);
  for (const [key, value] of entries) record[key] = value;
  return record;
}
