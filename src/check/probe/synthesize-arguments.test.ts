import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkArguments, synthesizeArguments } from './synthesize-arguments.js';

const context = { sampleFile: '/sandbox/work/notes.txt', sampleDir: '/sandbox/work/docs' };

const first = async (
  schema: unknown,
  extra: Partial<typeof context> & { toolName?: string } = {},
) => {
  const outcome = await synthesizeArguments(schema, { ...context, ...extra });
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.candidates;
};

describe('synthesizeArguments', () => {
  it('takes default, then examples, const and enum before minimal values', async () => {
    const [args] = await first({
      type: 'object',
      properties: {
        a: { type: 'number', default: 7 },
        b: { type: 'string', examples: ['ex'] },
        c: { const: 'fixed' },
        d: { type: 'string', enum: ['x', 'y'] },
        e: { type: 'integer', minimum: 3, multipleOf: 2 },
        f: { type: 'number', exclusiveMinimum: 5 },
        g: { type: 'string', minLength: 8 },
        h: { type: 'array', items: { type: 'boolean' }, minItems: 2 },
        i: { type: 'string', format: 'email' },
        optional: { type: 'string' },
      },
      required: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'],
    });
    expect(args).toEqual({
      a: 7,
      b: 'ex',
      c: 'fixed',
      d: 'x',
      e: 4,
      f: 6,
      g: 'probexxx',
      h: [false, false],
      i: 'probe@example.com',
    });
  });

  it('points path-like properties at the seeded file and directory, directories first for listing tools', async () => {
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string' },
        dir: { type: 'string' },
        paths: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
      required: ['path', 'dir', 'paths'],
    };
    expect(await first(schema, { toolName: 'read_file' })).toEqual([
      { path: context.sampleFile, dir: context.sampleDir, paths: [context.sampleFile] },
      { path: context.sampleDir, dir: context.sampleDir, paths: [context.sampleDir] },
    ]);
    const [listing] = await first(schema, { toolName: 'list_directory' });
    expect(listing?.path).toBe(context.sampleDir);
  });

  it('follows local $ref, merges allOf and takes the first usable oneOf branch', async () => {
    const [args] = await first({
      type: 'object',
      $defs: { id: { type: 'integer', minimum: 10 } },
      allOf: [{ properties: { id: { $ref: '#/$defs/id' } }, required: ['id'] }],
      properties: { choice: { oneOf: [false, { type: 'string', maxLength: 2 }] } },
      required: ['choice'],
    });
    expect(args).toEqual({ id: 10, choice: 'pr' });
  });

  it('reads draft-07 schemas as 2020-12', async () => {
    expect(
      await first({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { n: { type: 'number' } },
        required: ['n'],
      }),
    ).toEqual([{ n: 1 }]);
  });

  it('says why when no valid arguments can be made', async () => {
    const outcome = await synthesizeArguments(
      {
        type: 'object',
        properties: { code: { type: 'string', pattern: '^[0-9]{4}$' } },
        required: ['code'],
      },
      context,
    );
    expect(outcome).toEqual({
      ok: false,
      reason: expect.stringMatching(/^no valid arguments could be made: .*code.*pattern/),
    });
    const never = await synthesizeArguments(
      { type: 'object', properties: { x: false }, required: ['x'] },
      context,
    );
    expect(never.ok).toBe(false);
  });

  it('makes arguments named __proto__ and constructor as own keys, nothing inherited', async () => {
    const [args] = await first(
      JSON.parse(
        '{"type": "object", "required": ["__proto__", "constructor", "toString"],' +
          ' "properties": {"__proto__": {"type": "string"}, "constructor": {"type": "integer"}}}',
      ),
    );
    expect(JSON.stringify(args)).toBe('{"__proto__":"probe","constructor":1,"toString":"probe"}');
    // A $ref into Object.prototype resolves to nothing, as any missing target does.
    const viaRef = await synthesizeArguments(
      JSON.parse(
        '{"type": "object", "properties": {"a": {"$ref": "#/constructor"}}, "required": ["a"]}',
      ),
      context,
    );
    const missing = await synthesizeArguments(
      JSON.parse(
        '{"type": "object", "properties": {"a": {"$ref": "#/nothing"}}, "required": ["a"]}',
      ),
      context,
    );
    expect(viaRef).toEqual(missing);
  });

  it('makes {} for a tool without arguments', async () => {
    expect(await first({ type: 'object' })).toEqual([{}]);
    expect(await first(undefined)).toEqual([{}]);
  });

  // Simple schemas: objects of scalar and array properties with the common constraints.
  const scalar = fc.oneof(
    fc.record(
      {
        type: fc.constant('string'),
        minLength: fc.nat(20),
        maxLength: fc.integer({ min: 20, max: 40 }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constantFrom('number', 'integer'),
        minimum: fc.integer({ min: -1000, max: 1000 }),
        multipleOf: fc.constantFrom(1, 2, 5, 0.5),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('number'), exclusiveMinimum: fc.integer({ min: -50, max: 50 }) }),
    fc.record({ type: fc.constant('integer'), maximum: fc.integer({ min: -50, max: 50 }) }),
    fc.record({ type: fc.constant('boolean') }),
    fc.record({
      enum: fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      type: fc.constant('string'),
      format: fc.constantFrom('date-time', 'uri', 'uuid', 'email', 'date'),
    }),
  );
  const property = fc.oneof(
    scalar,
    fc.record({ type: fc.constant('array'), items: scalar, minItems: fc.nat(3) }),
  );
  const schema = fc
    .dictionary(fc.stringMatching(/^[a-z][a-z_]{0,8}$/), property, { maxKeys: 6 })
    .chain((properties) =>
      fc.record({
        type: fc.constant('object'),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
      }),
    );

  it('makes only arguments that pass the schema whenever it claims success', async () => {
    let made = 0;
    await fc.assert(
      fc.asyncProperty(schema, async (s) => {
        const outcome = await synthesizeArguments(s, context);
        if (!outcome.ok) return;
        made += 1;
        for (const candidate of outcome.candidates) {
          expect(await checkArguments(s, candidate)).toEqual({ ok: true });
          expect(Object.keys(candidate).sort()).toEqual([...s.required].sort());
        }
      }),
      { numRuns: 300 },
    );
    // Every schema of this family can be satisfied: synthesis must not give up often.
    expect(made).toBeGreaterThan(270);
  });
});
