import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolListing } from '../../tool/tool.js';
import { definitionDigests } from './definition-digests.js';
import { definitionBodyHash, definitionHash, fieldDigests } from './definition-hash.js';

const json = fc.jsonValue({ maxDepth: 3 });
const object = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 });

/** Listings with every field present or absent, odd keys (`__proto__`, `1`) included. */
const listing: fc.Arbitrary<ToolListing> = fc.record(
  {
    name: fc.stringMatching(/^[a-z0-9_.-]{1,12}$/),
    title: fc.string({ maxLength: 8 }),
    description: fc.string({ maxLength: 20 }),
    inputSchema: object.map((properties) => ({ type: 'object', properties })),
    outputSchema: object.map((rest) => ({ ...rest, type: 'object' })),
    annotations: fc.record(
      { title: fc.string(), readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() },
      { requiredKeys: [] },
    ),
    _meta: fc.dictionary(
      fc.constantFrom('dev.hintgate/resources', 'com.example/costHint', 'ui', '__proto__', '1'),
      json,
    ),
  },
  { requiredKeys: ['name', 'description', 'inputSchema'] },
) as fc.Arbitrary<ToolListing>;

describe('definitionDigests', () => {
  it('gives the digests of definitionHash, definitionBodyHash and fieldDigests', () => {
    fc.assert(
      fc.property(listing, (tool) => {
        expect(definitionDigests(tool)).toEqual({
          hash: definitionHash(tool),
          bodyHash: definitionBodyHash(tool),
          fields: fieldDigests(tool),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('hashes keys that look like array indexes, __proto__ and odd values as canonicalJson orders them', () => {
    const odd = fc.dictionary(
      fc.oneof(
        fc.constantFrom('__proto__', '0', '1', '10', '2', '01', '-1', '4294967295'),
        fc.string(),
      ),
      fc.oneof(json, fc.constantFrom(undefined, Number.NaN, new Date(0))),
    );
    fc.assert(
      fc.property(odd, fc.array(odd), (schema, items) => {
        const tool: ToolListing = {
          name: 't',
          description: 'd',
          inputSchema: { type: 'object', properties: schema, items } as ToolListing['inputSchema'],
        };
        expect(definitionDigests(tool).hash).toBe(definitionHash(tool));
      }),
      { numRuns: 300 },
    );
  });

  it('tells a rename by the hash and not the body hash', () => {
    const tool: ToolListing = { name: 'a', description: 'd', inputSchema: { type: 'object' } };
    const renamed = definitionDigests({ ...tool, name: 'b' });
    expect(renamed.hash).not.toBe(definitionDigests(tool).hash);
    expect(renamed.bodyHash).toBe(definitionDigests(tool).bodyHash);
  });
});
