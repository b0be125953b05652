import { createHash } from 'node:crypto';
import type { ToolListing } from '../../tool/index.js';
import { canonicalText } from './canonical-text.js';
import { type DefinitionField, definitionFields } from './definition-hash.js';

/** A JSON value as a lock file holds it. */
export type PinnedJson =
  | string
  | number
  | boolean
  | null
  | readonly PinnedJson[]
  | { readonly [key: string]: PinnedJson };

/**
 * A tool's full definition as `hintgate.lock` keeps it beside its hash, so that a review (and
 * a `git diff` of the lock) shows what a change was, not only that there was one. Laid out
 * to diff well: keys sorted at every depth (as the whole file), a description with line
 * breaks as one array entry per line, and fields that claim nothing left out.
 */
export interface PinnedDefinition {
  /** `title`, when the tool has one. */
  readonly title?: string;
  /**
   * `description`: the text itself when it is one line, else its lines (joined with `\n`
   * they give the text back exactly).
   */
  readonly description: string | readonly string[];
  readonly inputSchema: PinnedJson;
  /** `outputSchema`, when the tool has one. */
  readonly outputSchema?: PinnedJson;
  /** `annotations` as listed (every key, three states kept); left out when `{}` or absent. */
  readonly annotations?: PinnedJson;
  /** The pinned `_meta` hint keys (see `isPinnedMetaKey`); left out when there are none. */
  readonly meta?: PinnedJson;
}

const jsonCopy = (value: unknown): PinnedJson => JSON.parse(JSON.stringify(value)) as PinnedJson;
const asJson = (value: unknown): PinnedJson => value as PinnedJson;

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.keys(value).length === 0;

/**
 * The definition of `listing` as a lock file records it (see {@link PinnedDefinition}). With
 * `copy: false` its schemas, annotations and `_meta` are the listing's own objects, not
 * copies (default true).
 */
export function pinnedDefinition(
  listing: ToolListing,
  options: { readonly copy?: boolean } = {},
): PinnedDefinition {
  const copyJson = options.copy === false ? asJson : jsonCopy;
  const fields = definitionFields(listing);
  const description = String(fields.description ?? '');
  const lines = description.split('\n');
  return {
    ...(typeof fields.title === 'string' ? { title: fields.title } : {}),
    description: lines.length === 1 ? description : lines,
    inputSchema: copyJson(fields.inputSchema ?? {}),
    ...(fields.outputSchema === undefined ? {} : { outputSchema: copyJson(fields.outputSchema) }),
    ...(isEmptyObject(fields.annotations) ? {} : { annotations: copyJson(fields.annotations) }),
    ...(isEmptyObject(fields.meta) ? {} : { meta: copyJson(fields.meta) }),
  };
}

/** The description text of a pinned definition. */
export function pinnedDescription(definition: PinnedDefinition): string {
  return typeof definition.description === 'string'
    ? definition.description
    : definition.description.join('\n');
}

/**
 * The fields of a pinned definition as the definition hash sees them: absent annotations and
 * meta are `{}`, the description one string.
 */
export function pinnedDefinitionFields(
  definition: PinnedDefinition,
): Record<DefinitionField, unknown> {
  // Keys in canonical (sorted) order: a definition read from a lock file is sorted at every
  // depth, so its canonical text is then JSON.stringify's, with no sorting.
  return {
    annotations: definition.annotations ?? {},
    description: pinnedDescription(definition),
    inputSchema: definition.inputSchema,
    meta: definition.meta ?? {},
    outputSchema: definition.outputSchema,
    title: definition.title,
  };
}

/** `definitionBodyHash` of the tool a pinned definition was recorded from. */
export function pinnedDefinitionBodyHash(definition: PinnedDefinition): string {
  // canonicalText: a lock of thousands of pins is checked without copying each definition.
  const text = canonicalText(pinnedDefinitionFields(definition));
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}
