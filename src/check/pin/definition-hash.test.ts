import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_META } from '../../mcp/tool-meta.js';
import { HINT_NAMES, type HintName, type ToolAnnotations } from '../../tool/annotations.js';
import type { JsonSchemaObject } from '../../tool/json-schema.js';
import type { ToolListing } from '../../tool/tool.js';
import {
  definitionBodyHash,
  definitionHash,
  fieldDigests,
  isPinnedMetaKey,
  pinnedMeta,
} from './definition-hash.js';

const base: ToolListing = {
  name: 'read_file',
  description: 'Read a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
};

/** A deep copy with every object's keys in an order drawn from `order`. */
const shuffledKeys = (value: unknown, order: () => number): unknown => {
  if (Array.isArray(value)) return value.map((item) => shuffledKeys(item, order));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .map((entry) => ({ entry, rank: order() }))
      .sort((a, b) => a.rank - b.rank)
      .map(({ entry: [key, field] }) => [key, shuffledKeys(field, order)] as const);
    // defineProperty keeps a `__proto__` key an own key, as JSON.parse would.
    const copy: Record<string, unknown> = {};
    for (const [key, field] of entries) {
      Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true });
    }
    return copy;
  }
  return value;
};

const seededOrder = (seed: number): (() => number) => {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
};

const schemaArb: fc.Arbitrary<JsonSchemaObject> = fc
  .dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 })
  .map((extra) => ({ ...extra, type: 'object' }));

const triState = fc.constantFrom(true, false, undefined);

const annotationsArb: fc.Arbitrary<ToolAnnotations | undefined> = fc.option(
  fc
    .record({
      title: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      readOnlyHint: triState,
      destructiveHint: triState,
      idempotentHint: triState,
      openWorldHint: triState,
    })
    .map((all) => Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined))),
  { nil: undefined },
);

const metaKeyArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 6 }).map((s) => `dev.hintgate/${s}`),
  fc.string({ maxLength: 6 }).map((s) => `com.example/${s}`),
  fc.constantFrom(...Object.values(TOOL_META), 'com.example/costHint', 'progressToken'),
);

const listingArb: fc.Arbitrary<ToolListing> = fc
  .record({
    name: fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/),
    title: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
    description: fc.string({ maxLength: 20 }),
    inputSchema: schemaArb,
    outputSchema: fc.option(schemaArb, { nil: undefined }),
    annotations: annotationsArb,
    _meta: fc.option(fc.dictionary(metaKeyArb, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), {
      nil: undefined,
    }),
  })
  .map(
    (all) =>
      Object.fromEntries(
        Object.entries(all).filter(([, v]) => v !== undefined),
      ) as unknown as ToolListing,
  );

type Mutation = (listing: ToolListing) => ToolListing;

const nextState = (value: boolean | undefined): boolean | undefined =>
  value === true ? false : value === false ? undefined : true;

const withHint = (listing: ToolListing, hint: HintName): ToolListing => {
  const { [hint]: current, ...rest } = listing.annotations ?? {};
  const next = nextState(current);
  return { ...listing, annotations: next === undefined ? rest : { ...rest, [hint]: next } };
};

/** One change of each pinned field; each gives a definition that differs. */
const mutations: Record<string, Mutation> = {
  name: (l) => ({ ...l, name: `${l.name}x` }),
  title: (l) =>
    l.title === undefined
      ? { ...l, title: '' }
      : (({ title: _, ...rest }) => rest)(l as ToolListing & { title: string }),
  description: (l) => ({ ...l, description: `${l.description}.` }),
  inputSchema: (l) => ({ ...l, inputSchema: { ...l.inputSchema, type: 'array' } }),
  outputSchema: (l) =>
    l.outputSchema === undefined
      ? { ...l, outputSchema: { type: 'object' } }
      : (({ outputSchema: _, ...rest }) => rest)(
          l as ToolListing & { outputSchema: JsonSchemaObject },
        ),
  annotationTitle: (l) => ({
    ...l,
    annotations: { ...l.annotations, title: `${l.annotations?.title ?? ''}t` },
  }),
  ...Object.fromEntries(HINT_NAMES.map((hint) => [hint, (l: ToolListing) => withHint(l, hint)])),
  hintMeta: (l) => ({
    ...l,
    _meta: { ...l._meta, 'dev.hintgate/resources': [JSON.stringify(l._meta ?? null)] },
  }),
  vendorHintMeta: (l) => ({
    ...l,
    _meta: { ...l._meta, 'com.example/costHint': [JSON.stringify(l._meta ?? null)] },
  }),
};

describe('definitionHash', () => {
  it('is a sha256 digest', () => {
    expect(definitionHash(base)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('does not depend on the order of keys, at any depth', () => {
    fc.assert(
      fc.property(listingArb, fc.integer(), (listing, seed) => {
        const shuffled = shuffledKeys(listing, seededOrder(seed)) as ToolListing;
        expect(definitionHash(shuffled)).toBe(definitionHash(listing));
        expect(definitionBodyHash(shuffled)).toBe(definitionBodyHash(listing));
        expect(fieldDigests(shuffled)).toEqual(fieldDigests(listing));
      }),
    );
  });

  it('changes when any pinned field changes', () => {
    fc.assert(
      fc.property(listingArb, fc.constantFrom(...Object.keys(mutations)), (listing, field) => {
        const changed = (mutations[field] as Mutation)(listing);
        expect(definitionHash(changed), field).not.toBe(definitionHash(listing));
      }),
    );
  });

  it('changes the body hash for every field but the name', () => {
    fc.assert(
      fc.property(listingArb, fc.constantFrom(...Object.keys(mutations)), (listing, field) => {
        const changed = (mutations[field] as Mutation)(listing);
        const same = definitionBodyHash(changed) === definitionBodyHash(listing);
        expect(same, field).toBe(field === 'name');
      }),
    );
  });

  it('keeps three states: {} and { readOnlyHint: false } differ, absent annotations and {} do not', () => {
    expect(definitionHash({ ...base, annotations: {} })).not.toBe(
      definitionHash({ ...base, annotations: { readOnlyHint: false } }),
    );
    expect(definitionHash({ ...base, annotations: { destructiveHint: true } })).not.toBe(
      definitionHash({ ...base, annotations: {} }),
    );
    expect(definitionHash({ ...base, annotations: {} })).toBe(definitionHash(base));
  });

  it('ignores volatile _meta and the view keys a hintgate server adds', () => {
    const volatile = definitionHash({
      ...base,
      _meta: {
        progressToken: 7,
        'com.example/build': '2025-01-01T00:00:00Z',
        'openai/outputTemplate': 'ui://widget',
        [TOOL_META.origin]: 'fs',
        [TOOL_META.class]: 'read',
        [TOOL_META.trusted]: false,
        [TOOL_META.effective]: { readOnlyHint: false },
        [TOOL_META.gated]: true,
      },
    });
    expect(volatile).toBe(definitionHash(base));
  });
});

describe('isPinnedMetaKey', () => {
  it.each([
    ['dev.hintgate/resources', true],
    ['dev.hintgate/conflicts', true],
    ['com.example/costHint', true],
    ['latencyHint', true],
    ['dev.hintgate/origin', false],
    ['dev.hintgate/effective', false],
    ['com.example/hints', false],
    ['com.example/HintText', false],
    ['progressToken', false],
  ])('%s counts: %s', (key, counts) => {
    expect(isPinnedMetaKey(key)).toBe(counts);
  });

  it('pinnedMeta keeps only the keys that count', () => {
    expect(
      pinnedMeta({ 'dev.hintgate/resources': ['file:{path}'], 'dev.hintgate/trusted': true, x: 1 }),
    ).toEqual({ 'dev.hintgate/resources': ['file:{path}'] });
    expect(pinnedMeta(undefined)).toEqual({});
  });
});

describe('fieldDigests', () => {
  it('has a digest per present field and leaves absent title and outputSchema out', () => {
    expect(Object.keys(fieldDigests(base)).sort()).toEqual([
      'annotations',
      'description',
      'inputSchema',
      'meta',
    ]);
    const full = fieldDigests({ ...base, title: 'Read', outputSchema: { type: 'object' } });
    expect(Object.keys(full)).toHaveLength(6);
  });
});
