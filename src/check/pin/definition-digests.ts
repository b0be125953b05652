import { createHash } from 'node:crypto';
import type { ToolListing } from '../../tool/index.js';
import { canonicalText } from './canonical-text.js';
import { DEFINITION_FIELDS, type DefinitionField, definitionFields } from './definition-hash.js';

/** The three digests a pin records of a definition (see `definitionHash`). */
export interface DefinitionDigests {
  /** `definitionHash`: the whole definition with its name. */
  readonly hash: string;
  /** `definitionBodyHash`: the definition without its name. */
  readonly bodyHash: string;
  /** `fieldDigests`: one digest per field present. */
  readonly fields: Readonly<Partial<Record<DefinitionField, string>>>;
}

const sha256 = (text: string): string =>
  `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** The keys of the hashed object in the order canonical JSON sorts them. */
const HASHED_KEYS = [...DEFINITION_FIELDS, 'name'].sort() as readonly (DefinitionField | 'name')[];

/**
 * `definitionHash`, `definitionBodyHash` and `fieldDigests` of `listing` at once, each field
 * turned into canonical JSON once: the whole definition's canonical text is the fields'
 * texts under their sorted keys, so it is put together from them rather than made again
 * (a third of the work of the three functions, for a catalog of thousands of tools).
 */
export function definitionDigests(listing: ToolListing): DefinitionDigests {
  const values: Record<string, unknown> = { ...definitionFields(listing), name: listing.name };
  const fields: Partial<Record<DefinitionField, string>> = {};
  let body = '';
  let whole = '';
  for (const key of HASHED_KEYS) {
    const value = values[key];
    if (value === undefined) continue;
    const text = canonicalText(value);
    const member = `${whole === '' ? '' : ','}${JSON.stringify(key)}:${text}`;
    whole += member;
    if (key === 'name') continue;
    body += `${body === '' ? '' : ','}${JSON.stringify(key)}:${text}`;
    fields[key] = sha256(text);
  }
  return { hash: sha256(`{${whole}}`), bodyHash: sha256(`{${body}}`), fields };
}
