import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/index.js';
import { validate as validateMetaSchema } from './json-schema-meta.generated.js';
import { makeAjv, toolSchema } from './tool-schema.js';

// A tool's JSON Schema is checked against the 2020-12 meta-schema with a validator generated
// ahead of time, not with the one Ajv compiles at run time. The two must agree on every
// schema: the same verdict and, for a schema that fails, the same message.

/** Ajv checking schemas itself, as tool-schema.ts's input validators are made. */
const reference = makeAjv('input');

const generated = validateMetaSchema as ((schema: unknown) => boolean) & {
  errors?: Parameters<typeof reference.errorsText>[0];
};

/** Both checks of `schema`: valid, or the message Ajv's compile would throw. */
const verdicts = (schema: unknown) => {
  const expected =
    reference.validateSchema(schema as object) === true
      ? 'valid'
      : reference.errorsText(reference.errors);
  const actual = generated(schema) ? 'valid' : reference.errorsText(generated.errors);
  return { expected, actual };
};

const KEYWORDS = [
  'type',
  'properties',
  'items',
  'prefixItems',
  'required',
  'enum',
  'const',
  'minLength',
  'maximum',
  'pattern',
  'anyOf',
  'oneOf',
  'not',
  'additionalProperties',
  '$defs',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$id',
  'uniqueItems',
  'dependentRequired',
  'format',
  'default',
  'unevaluatedProperties',
  'x-custom',
] as const;

const TYPE_NAMES = ['string', 'number', 'integer', 'object', 'array', 'boolean', 'null', 'nope'];

/** Schema-like values: keyword objects with values of the right shape or not. */
const schemas = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean(),
    fc.dictionary(
      fc.constantFrom(...KEYWORDS),
      fc.oneof(
        fc.jsonValue({ maxDepth: 1 }),
        fc.constantFrom(...TYPE_NAMES),
        fc.array(fc.constantFrom(...TYPE_NAMES), { maxLength: 3 }),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
        tie('schema'),
        fc.dictionary(fc.string({ maxLength: 4 }), tie('schema'), { maxKeys: 3 }),
        fc.array(tie('schema'), { maxLength: 3 }),
      ),
      { maxKeys: 5 },
    ),
  ),
}));

describe('the generated 2020-12 meta-schema validator', () => {
  it('agrees with Ajv checking schemas itself, verdict and message', () => {
    fc.assert(
      fc.property(schemas.schema, (schema) => {
        const { expected, actual } = verdicts(schema);
        expect(actual).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [{ type: 'nope' }],
    [{ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }],
    [{ type: 'object', required: ['a', 'a'] }],
    [{ type: 'object', properties: { a: { $anchor: '1bad' } } }],
    [{ type: 'object', $defs: { x: { enum: 'not a list' } } }],
    [{ type: 'object', properties: { a: { items: { type: ['string', 'string'] } } } }],
  ])('rejects %j as Ajv does', (schema) => {
    const { expected, actual } = verdicts(schema);
    expect(expected).not.toBe('valid');
    expect(actual).toBe(expected);
  });
});

describe('toolSchema with the generated check', () => {
  const refusal = (schema: Record<string, unknown>): HintgateError => {
    try {
      toolSchema(schema, 'input', 'inputSchema of x');
    } catch (error) {
      if (error instanceof HintgateError) return error;
      throw error;
    }
    throw new Error('expected invalid_schema, nothing was thrown');
  };

  it("refuses an invalid schema with Ajv's own words", () => {
    const error = refusal({ type: 'object', properties: { a: { type: 'string', minLength: -1 } } });
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toContain(
      'inputSchema of x is not a valid JSON Schema: schema is invalid: data/properties/a/minLength must be >= 0',
    );
  });

  it('checks a schema that names the 2020-12 dialect as one that names none', () => {
    const error = refusal({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: 'a',
    });
    expect(error.message).toContain('schema is invalid: data/required must be array');
  });

  it('leaves a schema of another dialect to Ajv, which knows only 2020-12', () => {
    const error = refusal({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
    expect(error.message).toContain(
      'no schema with key or ref "http://json-schema.org/draft-07/schema#"',
    );
  });

  it('compiles a valid schema and validates with it', async () => {
    const schema = toolSchema(
      { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] },
      'input',
      'inputSchema of x',
    );
    expect(await schema.validate({ n: 2 })).toEqual({ ok: true, value: { n: 2 } });
    expect(await schema.validate({ n: 0 })).toMatchObject({ ok: false });
  });
});
