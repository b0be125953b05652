import type { Tool as McpTool } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toToolListing } from '../../tool/index.js';
import { toRemoteTools } from './remote-tool.js';
import { remoteToolListings } from './remote-tool-listing.js';

/** What the gateway lists for these tools: the registered remote tools' listings. */
const registered = (tools: readonly McpTool[]) =>
  toRemoteTools(tools, 'srv', () => Promise.reject(new Error('no calls')), undefined, {
    schemas: 'lazy',
  }).tools.map((tool) => toToolListing(tool));

const json = fc.jsonValue({ maxDepth: 2 });
const property = fc.record({ type: fc.constantFrom('string', 'number', 'boolean') });

/** Tools as servers list them, well-formed or not. */
const listed: fc.Arbitrary<McpTool> = fc.record(
  {
    name: fc.oneof(fc.stringMatching(/^[a-c]{1,3}$/), fc.constantFrom('bad name', '', 'x/y')),
    title: fc.oneof(fc.string({ maxLength: 4 }), fc.constant('')),
    description: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('', '  ', 'Does it.')),
    inputSchema: fc.oneof(
      fc
        .dictionary(fc.string({ maxLength: 4 }), property)
        .map((p) => ({ type: 'object', properties: p })),
      // Only schemas that compile: a schema that fails to compile once compiles the next
      // time (the validator keeps it), so the two ways could not see it alike in a row.
      fc.constantFrom({ type: 'string' }, {}),
    ),
    outputSchema: fc.oneof(
      fc.constantFrom({ type: 'object' }, { type: 'array' }, { type: 'object', required: 3 }),
      json,
    ),
    annotations: fc.record(
      {
        title: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
        readOnlyHint: fc.oneof(fc.boolean(), fc.constant('yes')),
        idempotentHint: fc.boolean(),
        custom: fc.oneof(
          fc.constantFrom(
            { rateLimit: { max: 2, windowMs: 1000 } },
            { rateLimit: { max: -1 } },
            { vendor: 'x' },
          ),
          json,
        ),
      },
      { requiredKeys: [] },
    ),
    _meta: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), json), json),
    icons: fc.constant([{ src: 'https://example.com/i.png' }]),
  },
  { requiredKeys: ['name', 'inputSchema'] },
) as unknown as fc.Arbitrary<McpTool>;

describe('remoteToolListings', () => {
  it('lists what the gateway registers, for any list a server sends', () => {
    fc.assert(
      fc.property(fc.array(listed, { maxLength: 6 }), (tools) => {
        let expected: ReturnType<typeof registered>;
        try {
          expected = registered(tools);
        } catch (error) {
          // A list the gateway cannot take fails the listing alike.
          expect(() => remoteToolListings(tools, 'srv')).toThrow((error as Error).message);
          return;
        }
        expect(remoteToolListings(tools, 'srv')).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('leaves out a bad name and a second tool of a name, and lists the schemas given', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } } };
    const tools = [
      { name: 'find', description: 'Finds.', inputSchema: schema },
      { name: 'find', description: 'Again.', inputSchema: { type: 'object' } },
      { name: 'no spaces', description: 'Bad.', inputSchema: { type: 'object' } },
    ] as McpTool[];
    const listings = remoteToolListings(tools, 'srv');
    expect(listings.map((listing) => listing.description)).toEqual(['Finds.']);
    expect(listings[0]?.inputSchema).toBe(schema);
  });
});
