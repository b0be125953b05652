import { isDeepStrictEqual } from 'node:util';
import type { ToolListing } from '../../tool/index.js';
import { definitionFields } from './definition-hash.js';
import type { PinnedTool } from './lock-file.js';
import { pinnedDefinitionFields } from './pinned-definition.js';

/**
 * Whether `listing` has the definition recorded in its pin, compared field by field with
 * the recorded definition (absent annotations or hint `_meta` equal to none, as the hashes
 * count them), without rendering or hashing either. A lock file's recorded definition is
 * checked against its `bodyHash` when the file is read, so a match means the listing's
 * `definitionHash` is the pin's `hash`: the check a gateway makes for each of thousands of
 * unchanged tools costs a walk of its definition, not a canonical copy and a digest. False
 * when the pin recorded no definition (pins written before hintgate recorded them) or
 * anything differs, even only in form (`-0` for `0`): then compare the hashes.
 */
export function sameAsPinned(pinned: PinnedTool, listing: ToolListing): boolean {
  const recorded = pinned.definition;
  return (
    recorded !== undefined &&
    isDeepStrictEqual(pinnedDefinitionFields(recorded), definitionFields(listing))
  );
}
