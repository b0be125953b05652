import type { ToolListing } from '../../tool/index.js';
import { definitionFields } from './definition-hash.js';
import type { PinnedTool } from './lock-file.js';
import { pinnedDefinitionFields } from './pinned-definition.js';

/**
 * Whether `listing` has the definition recorded in its pin, compared field by field with
 * the recorded definition (absent annotations or hint `_meta` equal to none, as the hashes
 * count them; keys in any order), without rendering or hashing either. A lock file's
 * recorded definition is checked against its `bodyHash` when the file is read, so a match
 * means the listing's
 * `definitionHash` is the pin's `hash`: the check a gateway makes for each of thousands of
 * unchanged tools costs a walk of its definition, not a canonical copy and a digest. False
 * when the pin recorded no definition (pins written before hintgate recorded them) or
 * anything differs or is not JSON data (a `toJSON` method): then compare the hashes.
 */
export function sameAsPinned(pinned: PinnedTool, listing: ToolListing): boolean {
  const recorded = pinned.definition;
  return (
    recorded !== undefined && sameJson(pinnedDefinitionFields(recorded), definitionFields(listing))
  );
}

const hasOwn = (value: object, key: string): boolean => Object.hasOwn(value, key);

/**
 * Whether two values give the same canonical JSON, for JSON data (what JSON.parse makes):
 * equal primitives, arrays item by item, objects key by key in any order. Anything else (a
 * `toJSON` method, a function) is reported as different, so that the caller compares
 * hashes instead: a false "different" costs a hash, a false "same" would let a changed
 * tool run.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'object' || a === null || !hasToJson(a);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (hasToJson(a) || hasToJson(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) {
      if (!sameJson(a[index], b[index])) return false;
    }
    return true;
  }
  if (Array.isArray(b)) return false;
  // Keys whose value is undefined are left out, as JSON leaves them out.
  let count = 0;
  for (const key of Object.keys(a)) {
    const left = (a as Record<string, unknown>)[key];
    if (left === undefined) continue;
    if (typeof left === 'function' || typeof left === 'symbol') return false;
    count += 1;
    if (!hasOwn(b, key) || !sameJson(left, (b as Record<string, unknown>)[key])) return false;
  }
  let others = 0;
  for (const key of Object.keys(b)) {
    if ((b as Record<string, unknown>)[key] !== undefined) others += 1;
  }
  return count === others;
}

const hasToJson = (value: object): boolean =>
  typeof (value as { toJSON?: unknown }).toJSON === 'function';
