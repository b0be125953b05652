/**
 * A copy of `value` whose every object lists its keys in the order canonical JSON sorts
 * them (`canonicalJson`: array-index keys first in numeric order, then the others sorted),
 * so that its canonical text is `JSON.stringify`'s, which `canonicalText` then uses without
 * sorting. Meant for the definitions `hintgate pin` hashes, reviews and writes: one sorted
 * copy instead of a sorted pass per use. Anything but plain JSON data (a `toJSON`, a class
 * instance) and an object with a `__proto__` key are kept as they are, not copied.
 */
export function canonicalCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) return value.map((item: unknown) => canonicalCopy(item)) as T;
  if (proto !== Object.prototype && proto !== null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const keys = Object.keys(value);
  if (keys.includes('__proto__')) return value;
  const copy: Record<string, unknown> = {};
  // Array-index keys come first in numeric order whatever the insertion order.
  for (const key of keys.sort()) copy[key] = canonicalCopy((value as Record<string, unknown>)[key]);
  return copy as T;
}
