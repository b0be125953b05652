import { canonicalJson } from '../../audit/index.js';

/** Options of {@link canonicalText}. */
export interface CanonicalTextOptions {
  /**
   * Write it as `JSON.stringify(..., null, 2)` does, each line after the first starting
   * with this indentation (the indentation of the line the value starts on). Default: one
   * line, as `canonicalJson`.
   */
  readonly indent?: string;
}

const isArrayIndex = (key: string): boolean =>
  /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295;

/** Whether `value` is left out of an object's JSON (and is `null` in an array's). */
const isSkipped = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** Keys in the order `JSON.stringify` gives a sorted copy's: array indexes first, numerically. */
function orderedKeys(record: object): string[] {
  const keys = Object.keys(record).sort();
  const indexes = keys.filter(isArrayIndex);
  if (indexes.length === 0) return keys;
  indexes.sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...keys.filter((key) => !isArrayIndex(key))];
}

const isPlainData = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null || Array.isArray(value)) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
};

/** A value `canonicalText` does not walk itself, as `canonicalJson` (and `JSON.parse`) make it. */
function viaCopy(value: unknown, indent: string | undefined): string {
  const text = canonicalJson(value);
  if (indent === undefined) return text;
  return JSON.stringify(JSON.parse(text), null, 2).replaceAll('\n', `\n${indent}`);
}

/**
 * `canonicalJson(value)` (keys sorted at every depth), written as it walks `value` instead of
 * from a sorted copy of it, so that the definitions of thousands of tools are hashed and
 * written without being copied again; with `indent`, the text of
 * `JSON.stringify(JSON.parse(canonicalJson(value)), null, 2)` with each line after the first
 * indented, as a lock file holds its pins. Keys come out as `JSON.stringify` orders a sorted
 * copy's: array-index keys first in numeric order, then the others sorted. What is not plain
 * JSON data (a `toJSON`, a class instance, a bigint) is left to `canonicalJson`.
 */
export function canonicalText(value: unknown, options: CanonicalTextOptions = {}): string {
  const { indent } = options;
  const shape = walkShape(value);
  if (shape === OPAQUE) return write(value, indent);
  if (shape === SORTED) {
    // Every object's keys are already in canonical order (a definition read back from a lock
    // file, which is written sorted): JSON.stringify's own order is the canonical one.
    if (indent === undefined) return JSON.stringify(value) ?? 'null';
    return pretty(value, undefined, indent);
  }
  const keys = new Set<string>();
  collectKeys(value, keys);
  // JSON.stringify with a list of keys writes every object's keys in the list's order: the
  // list of all keys, ordered as canonicalJson orders them, gives its text natively.
  const order = [...keys].sort();
  if (order.some(isArrayIndex)) {
    const indexes = order.filter(isArrayIndex).sort((x, y) => Number(x) - Number(y));
    order.splice(0, order.length, ...indexes, ...order.filter((key) => !isArrayIndex(key)));
  }
  if (indent === undefined) return JSON.stringify(value, order) ?? 'null';
  return pretty(value, order, indent);
}

/** An indentation JSON.stringify's own nesting gives: two spaces per level. */
const NESTED_INDENT = /^(?: {2})+$/;

/**
 * `JSON.stringify(value, order, 2)` with each line after the first indented by `indent`.
 * An indentation of two spaces per level is had by nesting the value that deep under the
 * key `""` and taking its text out of the result (a slice, not a copy), so that a lock file
 * of thousands of pins is not written into a second, indented copy of each pin's text.
 */
function pretty(value: unknown, order: string[] | undefined, indent: string): string {
  if (typeof value !== 'object' || value === null || !NESTED_INDENT.test(indent)) {
    const text = JSON.stringify(value, order, 2) ?? 'null';
    return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
  }
  const depth = indent.length / 2;
  let nested: unknown = value;
  for (let level = 0; level < depth; level += 1) nested = { '': nested };
  // With a list of keys, only the keys listed are written: the wrapper's "" among them.
  const keys = order === undefined || order.includes('') ? order : ['', ...order];
  const text = JSON.stringify(nested, keys, 2);
  // Each level opens with `{\n<its indentation>"": ` and closes with `\n<one level less>}`.
  let start = 0;
  for (let level = 1; level <= depth; level += 1) start += 2 + 2 * level + 4;
  let end = 0;
  for (let level = 0; level < depth; level += 1) end += 1 + 2 * level + 1;
  return text.slice(start, text.length - end);
}

/** {@link walkShape}: plain JSON data whose every object has its keys in canonical order. */
const SORTED = 0;
/** {@link walkShape}: plain JSON data with some object's keys out of canonical order. */
const UNSORTED = 1;
/**
 * {@link walkShape}: something else (a `toJSON`, a class instance, a bigint, a `__proto__`
 * key), left to {@link write}.
 */
const OPAQUE = 2;

const isIndexKey = (key: string): boolean => {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && isArrayIndex(key);
};

/**
 * Whether `value` is plain JSON data, and whether each of its objects lists its keys in the
 * order canonical JSON sorts them. Objects list array-index keys first in numeric order
 * (as every JS object does), so only the other keys are checked to be sorted.
 */
function walkShape(value: unknown): typeof SORTED | typeof UNSORTED | typeof OPAQUE {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? OPAQUE : SORTED;
  }
  if (!isPlainData(value)) return OPAQUE;
  let shape: typeof SORTED | typeof UNSORTED = SORTED;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = walkShape(item);
      if (inner === OPAQUE) return OPAQUE;
      if (inner === UNSORTED) shape = UNSORTED;
    }
    return shape;
  }
  let previous: string | undefined;
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return OPAQUE;
    if (isIndexKey(key)) {
      if (previous !== undefined) shape = UNSORTED;
    } else {
      if (previous !== undefined && !(previous < key)) shape = UNSORTED;
      previous = key;
    }
    const inner = walkShape((value as Record<string, unknown>)[key]);
    if (inner === OPAQUE) return OPAQUE;
    if (inner === UNSORTED) shape = UNSORTED;
  }
  return shape;
}

/**
 * Adds the keys of every object in `value` to `keys`; false when `value` holds something
 * other than plain JSON data (a `toJSON`, a class instance, a bigint), whose keys the walk
 * cannot know.
 */
function collectKeys(value: unknown, keys: Set<string>): boolean {
  if (value === null || typeof value !== 'object') {
    return typeof value !== 'bigint';
  }
  if (!isPlainData(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!collectKeys(item, keys)) return false;
    return true;
  }
  for (const key of Object.keys(value)) {
    keys.add(key);
    if (!collectKeys((value as Record<string, unknown>)[key], keys)) return false;
  }
  return true;
}

function write(value: unknown, indent: string | undefined): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value !== 'object' || !isPlainData(value)) return viaCopy(value, indent);
  const inner = indent === undefined ? undefined : `${indent}  `;
  const open = inner === undefined ? '' : `\n${inner}`;
  const comma = inner === undefined ? ',' : `,\n${inner}`;
  const close = indent === undefined ? '' : `\n${indent}`;
  const colon = indent === undefined ? ':' : ': ';
  let out = '';
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      out += `${index === 0 ? open : comma}${isSkipped(item) ? 'null' : write(item, inner)}`;
    }
    return out === '' ? '[]' : `[${out}${close}]`;
  }
  const record = value as Record<string, unknown>;
  for (const key of orderedKeys(record)) {
    const item = record[key];
    if (isSkipped(item)) continue;
    out += `${out === '' ? open : comma}${JSON.stringify(key)}${colon}${write(item, inner)}`;
  }
  return out === '' ? '{}' : `{${out}${close}}`;
}
