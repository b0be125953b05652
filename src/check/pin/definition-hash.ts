import { argumentDigest } from '../../audit/index.js';
import { META_PREFIX, TOOL_META } from '../../mcp/pin.js';
import type { ToolListing } from '../../tool/index.js';

/**
 * The parts of a tool definition a pin covers besides its name, in the order they are
 * reported. `meta` is the hint part of `_meta` only (see {@link isPinnedMetaKey}).
 */
export const DEFINITION_FIELDS = [
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  'meta',
] as const;

/** One of {@link DEFINITION_FIELDS}. */
export type DefinitionField = (typeof DEFINITION_FIELDS)[number];

/**
 * `dev.hintgate/` keys that a hintgate server adds to the tools it lists to describe its
 * own view (origin, class, trust, effective hints, gating). They follow that server's
 * configuration, not the tool's claims, so they are left out of pins.
 */
const VIEW_META_KEYS: ReadonlySet<string> = new Set(Object.values(TOOL_META));

/**
 * Whether a `_meta` key is part of a tool's pinned definition. Two kinds count:
 * - hint keys under `dev.hintgate/` (e.g. `dev.hintgate/resources`), except the view keys a
 *   hintgate server adds when it lists tools (`dev.hintgate/origin`, `/class`, `/trusted`,
 *   `/effective`, `/gated`);
 * - annotation-like hints of any vendor: keys whose last `/`-separated segment ends in
 *   `Hint` (e.g. `com.example/costHint`).
 * Everything else in `_meta` (vendor UI data, request ids, timestamps, versions) is volatile
 * or unrelated to what the tool does, and would break pins on every restart.
 */
export function isPinnedMetaKey(key: string): boolean {
  if (key.startsWith(META_PREFIX)) return !VIEW_META_KEYS.has(key);
  return (key.split('/').pop() ?? '').endsWith('Hint');
}

/** The `_meta` entries that count for pins (see {@link isPinnedMetaKey}); `{}` for none. */
export function pinnedMeta(meta: Readonly<Record<string, unknown>> | undefined): {
  [key: string]: unknown;
} {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta ?? {})) {
    if (isPinnedMetaKey(key) && value !== undefined) kept[key] = value;
  }
  return kept;
}

/**
 * The fields of a definition as pinned. Absent annotations and `{}` are the same (both claim
 * nothing), as are no `_meta` and a `_meta` without hint keys; absent hints inside
 * `annotations` stay absent, so `{}` and `{ readOnlyHint: false }` differ.
 */
export function definitionFields(listing: ToolListing): Record<DefinitionField, unknown> {
  return {
    title: listing.title,
    description: listing.description,
    inputSchema: listing.inputSchema,
    outputSchema: listing.outputSchema,
    annotations: listing.annotations ?? {},
    meta: pinnedMeta(listing._meta),
  };
}

/**
 * `sha256:<hex>` of the canonical JSON (keys sorted at every depth) of a tool's full
 * definition: name, title, description, input and output schema, annotations (three states)
 * and the hint keys of `_meta` (see {@link isPinnedMetaKey}). Equal definitions give equal
 * hashes whatever the order of their keys.
 */
export function definitionHash(listing: ToolListing): string {
  return argumentDigest({ name: listing.name, ...definitionFields(listing) });
}

/**
 * Like {@link definitionHash}, but without the name: equal for a tool that reappears under
 * another name with the same definition, which is how renames are recognised.
 */
export function definitionBodyHash(listing: ToolListing): string {
  return argumentDigest(definitionFields(listing));
}

/**
 * A digest of each field of the definition that is present (`title` and `outputSchema` may
 * be absent; the others are always there), so that a later comparison can say which fields
 * changed without keeping the definition itself.
 */
export function fieldDigests(listing: ToolListing): Partial<Record<DefinitionField, string>> {
  const fields = definitionFields(listing);
  const digests: Partial<Record<DefinitionField, string>> = {};
  for (const field of DEFINITION_FIELDS) {
    if (fields[field] !== undefined) digests[field] = argumentDigest(fields[field]);
  }
  return digests;
}
