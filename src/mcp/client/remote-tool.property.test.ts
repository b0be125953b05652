import type { Tool as McpTool } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import { type RemoteCall, toRemoteTools } from './remote-tool.js';

const call: RemoteCall = async () => ({ content: [{ type: 'text', text: 'ok' }] });

const good = (index: number): McpTool =>
  ({
    name: `good_${index}`,
    description: 'A tool as the spec wants it.',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    annotations: { readOnlyHint: true, custom: { rateLimit: { max: 5, windowMs: 1000 } } },
  }) as McpTool;

const json = fc.jsonValue({ maxDepth: 3 });

/** Something shaped like a JSON Schema, with keywords that make validators choke. */
const schemaLike = fc
  .tuple(
    fc.oneof(fc.constantFrom('object', 'string', 'array', 'nonsense'), json),
    fc.dictionary(
      fc.constantFrom(
        'properties',
        'required',
        '$id',
        '$ref',
        '$schema',
        '$defs',
        'pattern',
        'additionalProperties',
        'default',
        'items',
        'minLength',
        'allOf',
        'format',
      ),
      fc.oneof(
        json,
        fc.constantFrom(
          '(a)\\1',
          '#/nope',
          'https://schemas.example/shared',
          'http://json-schema.org/draft-07/schema#',
          'https://example.com/unknown-dialect',
        ),
        fc.dictionary(fc.string({ maxLength: 4 }), fc.record({ type: json, pattern: json })),
      ),
    ),
  )
  .map(([type, rest]) => ({ type, ...rest }));

const annotationsLike = fc.oneof(
  json,
  fc.record(
    {
      title: json,
      readOnlyHint: json,
      destructiveHint: fc.oneof(fc.boolean(), json),
      idempotentHint: json,
      openWorldHint: json,
      custom: fc.oneof(
        json,
        fc.record({
          rateLimit: fc.oneof(json, fc.record({ max: json, windowMs: json, maxWaitMs: json })),
        }),
      ),
    },
    { requiredKeys: [] },
  ),
);

/** What a hostile server may put in each field of a listed tool. */
const FIELDS = {
  name: json.filter((v) => typeof v !== 'string' || !v.startsWith('good_')),
  title: json,
  description: json,
  inputSchema: fc.oneof(json, schemaLike),
  outputSchema: fc.oneof(json, schemaLike),
  annotations: annotationsLike,
  _meta: json,
  icons: json,
  execution: json,
} as const;

const hostileTool = fc
  .record({
    field: fc.constantFrom(...(Object.keys(FIELDS) as (keyof typeof FIELDS)[])),
    index: fc.nat(),
  })
  .chain(({ field, index }) =>
    FIELDS[field].map((value) => ({ ...good(index), name: `bad_${index}`, [field]: value })),
  );

const list = fc.record({
  hostile: fc.array(hostileTool, { minLength: 1, maxLength: 3 }),
  goods: fc.integer({ min: 1, max: 3 }),
  seed: fc.nat(),
  schemas: fc.constantFrom('eager', 'lazy') as fc.Arbitrary<'eager' | 'lazy'>,
});

describe('toRemoteTools with hostile tools', () => {
  it('never throws and registers every valid tool listed beside any bad one', () => {
    fc.assert(
      fc.property(list, ({ hostile, goods, seed, schemas }) => {
        const valid = Array.from({ length: goods }, (_, i) => good(i));
        // Interleave, so that a bad tool comes before, between and after good ones.
        const all: McpTool[] = [...valid];
        hostile.forEach((tool, i) => {
          all.splice((seed + i) % (all.length + 1), 0, tool as unknown as McpTool);
        });
        const set = toRemoteTools(all, 'srv', call, undefined, { schemas });
        const names = set.tools.map((t) => t.name);
        for (const tool of valid) expect(names).toContain(tool.name);
        for (const problem of set.problems) expect(problem.message).toContain('"srv"');
        // A hostile tool is registered, or skipped with a problem that names it.
        for (const tool of hostile) {
          const name = (tool as { name: unknown }).name;
          if (typeof name !== 'string' || names.includes(name)) continue;
          expect(set.problems.some((p) => p.skipped && p.name === name)).toBe(true);
        }
        // The registry takes the whole set.
        const registry = createRegistry({ env: {} });
        registry.addOrigin({ name: 'srv', layer: 'project', trusted: false, tools: set.tools });
        expect(registry.list().map((t) => t.tool.name)).toEqual(expect.arrayContaining(names));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same outcome for the same list twice', () => {
    fc.assert(
      fc.property(hostileTool, (tool) => {
        const once = toRemoteTools([tool as unknown as McpTool, good(0)], 'srv', call);
        const twice = toRemoteTools([tool as unknown as McpTool, good(0)], 'srv', call);
        expect(twice.tools.map((t) => t.name)).toEqual(once.tools.map((t) => t.name));
        expect(twice.problems).toEqual(once.problems);
      }),
      { numRuns: 200 },
    );
  });
});
