import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolListing } from '../../tool/tool.js';
import { definitionHash } from './definition-hash.js';
import { emptyLockFile, formatLockFile, type PinnedTool, parseLockFile } from './lock-file.js';
import { pinTools } from './pin-tools.js';
import { sameAsPinned } from './same-as-pinned.js';

const now = new Date('2025-01-01T00:00:00.000Z');

/** The pin of `listing`, as a lock file written and read again holds it. */
const pinOf = (listing: ToolListing): PinnedTool => {
  const lock = pinTools(emptyLockFile(), { server: 's', listings: [listing], now });
  const read = parseLockFile(formatLockFile(lock), 'hintgate.lock');
  const pinned = read.servers.s?.tools[listing.name];
  if (pinned === undefined) throw new Error('not pinned');
  return pinned;
};

const listing: ToolListing = {
  name: 'search',
  title: 'Search',
  description: 'Searches.\nTwo lines.',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string', minLength: 1 }, n: { type: 'integer', default: 10 } },
    required: ['q'],
  },
  outputSchema: { type: 'object', properties: { hits: { type: 'array' } } },
  annotations: { readOnlyHint: true },
  _meta: { 'com.example/costHint': 2, 'ui/icon': 'x' },
};

describe('sameAsPinned', () => {
  it('matches a listing with its recorded definition, whatever the order of keys', () => {
    const pinned = pinOf(listing);
    expect(sameAsPinned(pinned, listing)).toBe(true);
    const reordered: ToolListing = {
      _meta: { 'com.example/costHint': 2 },
      annotations: { readOnlyHint: true },
      outputSchema: { type: 'object', properties: { hits: { type: 'array' } } },
      inputSchema: { required: ['q'], properties: listing.inputSchema.properties, type: 'object' },
      description: listing.description,
      title: 'Search',
      name: 'search',
    };
    // `ui/icon` is no hint key: pins leave it out.
    expect(sameAsPinned(pinned, reordered)).toBe(true);
  });

  it('takes absent annotations for none, as the hashes do', () => {
    const bare: ToolListing = { name: 't', description: 'T.', inputSchema: { type: 'object' } };
    expect(sameAsPinned(pinOf(bare), { ...bare, annotations: {}, _meta: { other: 1 } })).toBe(true);
  });

  it('does not match a change of any field, nor a pin without its definition', () => {
    const pinned = pinOf(listing);
    const changes: Partial<ToolListing>[] = [
      { title: 'Find' },
      { description: 'Searches.' },
      { inputSchema: { ...listing.inputSchema, required: [] } },
      { outputSchema: { type: 'object' } },
      { annotations: { readOnlyHint: false } },
      { annotations: {} },
      { _meta: { 'com.example/costHint': 3 } },
    ];
    for (const change of changes)
      expect(sameAsPinned(pinned, { ...listing, ...change })).toBe(false);
    const { definition: _recorded, ...withoutDefinition } = pinned;
    expect(sameAsPinned(withoutDefinition, listing)).toBe(false);
  });

  it('matches a listing from JSON with its own pin, and only listings of the pin hash (random definitions)', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const definition = fc.record(
      {
        title: fc.string(),
        description: fc.string(),
        inputSchema: fc.dictionary(fc.string(), json, { maxKeys: 4 }),
        annotations: fc.record(
          { readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() },
          { requiredKeys: [] },
        ),
        _meta: fc.dictionary(fc.constantFrom('a/xHint', 'dev.hintgate/resources', 'b'), json),
      },
      { requiredKeys: ['description', 'inputSchema'] },
    );
    fc.assert(
      fc.property(definition, definition, (a, b) => {
        // As a listing comes from the wire: parsed JSON.
        const first = JSON.parse(JSON.stringify({ name: 'tool', ...a })) as ToolListing;
        const second = { name: 'tool', ...b } as ToolListing;
        const pinned = pinOf(first);
        expect(sameAsPinned(pinned, first)).toBe(definitionHash(first) === pinned.hash);
        if (sameAsPinned(pinned, second)) expect(definitionHash(second)).toBe(pinned.hash);
      }),
      { numRuns: 200 },
    );
  });
});
