import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HintgateError } from '../errors/hintgate-error.js';
import {
  formatPath,
  isStandardSchema,
  PLAIN_JSON_SCHEMA_VENDOR,
  type SchemaInput,
  toolSchema,
} from './tool-schema.js';

const thrownBy = (fn: () => unknown): HintgateError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof HintgateError) return error;
    throw error;
  }
  throw new Error('expected a HintgateError, nothing was thrown');
};

/** A minimal Standard Schema that validates but cannot render itself to JSON Schema. */
const tinySchema: StandardSchemaV1<unknown, { n: number }> = {
  '~standard': {
    version: 1,
    vendor: 'tiny',
    validate: (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { n?: unknown }).n === 'number'
        ? { value: value as { n: number } }
        : { issues: [{ message: 'expected n', path: ['n'] }] },
  },
};

describe('toolSchema with a zod schema', () => {
  const input = z.object({ path: z.string(), limit: z.number().default(10) });

  it('validates input and returns the parsed value with defaults', async () => {
    const schema = toolSchema(input, 'input', 'inputSchema of tool "t"');
    expect(await schema.validate({ path: 'src/a.ts' })).toStrictEqual({
      ok: true,
      value: { path: 'src/a.ts', limit: 10 },
    });
  });

  it('rejects bad input with a message that names the field', async () => {
    const schema = toolSchema(input, 'input', 'inputSchema of tool "t"');
    const outcome = await schema.validate({ path: 3 });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.message).toMatch(/^path: /);
  });

  it('renders to a JSON Schema object with properties', () => {
    const schema = toolSchema(input, 'input', 'inputSchema of tool "t"');
    expect(schema.jsonSchema.type).toBe('object');
    expect(Object.keys(schema.jsonSchema.properties as object)).toStrictEqual(['path', 'limit']);
  });

  it('renders plain JSON Schema, without the hidden ~standard key zod attaches', () => {
    for (const role of ['input', 'output'] as const) {
      const { jsonSchema } = toolSchema(input, role, 'schema of tool "t"');
      expect(Reflect.ownKeys(jsonSchema)).not.toContain('~standard');
      expect('~standard' in jsonSchema).toBe(false);
      expect(Object.getPrototypeOf(jsonSchema)).toBe(Object.prototype);
    }
    // What zod renders by itself does carry the key: the copy above is what removes it.
    expect('~standard' in z.toJSONSchema(input)).toBe(true);
  });

  it('strips unknown fields from output (zod default strip)', async () => {
    const schema = toolSchema(z.object({ id: z.string() }), 'output', 'outputSchema of tool "t"');
    expect(schema.jsonSchema.type).toBe('object');
    expect(schema.jsonSchema.properties).toHaveProperty('id');
    expect(await schema.validate({ id: 'c1', internalNotes: 'secret' })).toStrictEqual({
      ok: true,
      value: { id: 'c1' },
    });
  });

  it('rejects a schema that is not an object type, like z.string()', () => {
    const error = thrownBy(() =>
      toolSchema(z.string() as SchemaInput, 'input', 'inputSchema of x'),
    );
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toContain('inputSchema of x');
    expect(error.message).toContain('"type": "object"');
  });
});

describe('toolSchema with a JSON Schema', () => {
  const pointSchema = {
    type: 'object',
    properties: {
      path: { type: 'string' },
      mode: { type: 'string', default: 'read' },
      point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
    },
    required: ['path'],
  } as const;

  it('validates with draft 2020-12 semantics (prefixItems)', async () => {
    const schema = toolSchema(pointSchema, 'input', 'inputSchema of tool "t"');
    expect((await schema.validate({ path: 'a', point: [1, 2] })).ok).toBe(true);
    expect((await schema.validate({ path: 'a', point: [1, 'two'] })).ok).toBe(false);
    expect((await schema.validate({ path: 'a', point: [1, 2, 3] })).ok).toBe(false);
  });

  it('applies defaults without mutating the caller object', async () => {
    const schema = toolSchema(pointSchema, 'input', 'inputSchema of tool "t"');
    const args = { path: 'a' };
    expect(await schema.validate(args)).toStrictEqual({
      ok: true,
      value: { path: 'a', mode: 'read' },
    });
    expect(args).toStrictEqual({ path: 'a' });
  });

  it('names the field in its messages', async () => {
    const schema = toolSchema(pointSchema, 'input', 'inputSchema of tool "t"');
    const wrongType = await schema.validate({ path: 3 });
    expect(!wrongType.ok && wrongType.message).toContain('path');
    const missing = await schema.validate({});
    expect(!missing.ok && missing.message).toMatch(/^path: /);
    const nested = await schema.validate({ path: 'a', point: [1, 'two'] });
    expect(!nested.ok && nested.message).toMatch(/^point\.1: /);
  });

  it('keeps the JSON Schema as given for tool lists', () => {
    const schema = toolSchema(pointSchema, 'input', 'inputSchema of tool "t"');
    expect(schema.jsonSchema).toStrictEqual(pointSchema);
  });

  it('strips fields of output objects the schema does not name, nested ones too', async () => {
    const schema = toolSchema(
      {
        type: 'object',
        properties: {
          id: { type: 'string' },
          owner: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
      'output',
      'outputSchema of tool "t"',
    );
    const raw = { id: 'c1', stripeCustomerId: 'cus_1', owner: { name: 'Ann', password: 'x' } };
    expect(await schema.validate(raw)).toStrictEqual({
      ok: true,
      value: { id: 'c1', owner: { name: 'Ann' } },
    });
    expect(raw.stripeCustomerId).toBe('cus_1');
    expect(raw.owner.password).toBe('x');
  });

  it('keeps extra output keys where additionalProperties is a schema or true', async () => {
    const typed = toolSchema(
      { type: 'object', properties: { id: {} }, additionalProperties: { type: 'number' } },
      'output',
      'outputSchema of tool "t"',
    );
    expect(await typed.validate({ id: 'a', count: 2 })).toStrictEqual({
      ok: true,
      value: { id: 'a', count: 2 },
    });
    const open = toolSchema(
      { type: 'object', properties: { id: {} }, additionalProperties: true },
      'output',
      'outputSchema of tool "t"',
    );
    expect(await open.validate({ id: 'a', note: 'x' })).toStrictEqual({
      ok: true,
      value: { id: 'a', note: 'x' },
    });
  });

  it('compiles two schemas with the same $id (the same tool defined twice)', async () => {
    const withId = () => ({
      $id: 'https://example.com/customer.json',
      type: 'object',
      properties: { id: { type: 'string' } },
    });
    for (const role of ['input', 'output'] as const) {
      const first = toolSchema(withId(), role, 'first');
      const second = toolSchema(withId(), role, 'second');
      expect((await first.validate({ id: 'a' })).ok).toBe(true);
      expect((await second.validate({ id: 1 })).ok).toBe(false);
    }
  });

  it('rejects a schema that is not an object type', () => {
    const error = thrownBy(() => toolSchema({ type: 'string' }, 'output', 'outputSchema of x'));
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toContain('structured results are always objects');
  });

  it('rejects an invalid JSON Schema and says how to fix it', () => {
    for (const bad of [{ type: 'nope' }, { type: 'object', properties: { a: { type: 'nope' } } }]) {
      const error = thrownBy(() => toolSchema(bad, 'input', 'inputSchema of x'));
      expect(error.code).toBe('invalid_schema');
      expect(error.message).toContain('inputSchema of x is not a valid JSON Schema');
      expect(error.cause).toBeInstanceOf(Error);
    }
  });
});

describe('toolSchema with other values', () => {
  it('rejects a Standard Schema without ~standard.jsonSchema, naming its vendor', () => {
    const error = thrownBy(() => toolSchema(tinySchema, 'input', 'inputSchema of x'));
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toContain('a tiny schema');
    expect(error.message).toContain('Standard JSON Schema');
  });

  it('rejects null, arrays and strings', () => {
    for (const bad of [null, [], 'object']) {
      const error = thrownBy(() => toolSchema(bad as unknown as SchemaInput, 'input', 'x'));
      expect(error.code).toBe('invalid_schema');
      expect(error.message).toContain('Standard Schema');
    }
  });

  it('reports an async Standard Schema through a promise', async () => {
    const asyncSchema = {
      '~standard': {
        version: 1,
        vendor: 'async',
        validate: async (value: unknown) => ({ value }),
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    } as unknown as StandardSchemaV1;
    const schema = toolSchema(asyncSchema, 'input', 'x');
    const outcome = schema.validate({ a: 1 });
    expect(outcome).toBeInstanceOf(Promise);
    expect(await outcome).toStrictEqual({ ok: true, value: { a: 1 } });
  });
});

describe('isStandardSchema', () => {
  it('recognizes zod and hand-made Standard Schemas but not JSON Schemas', () => {
    expect(isStandardSchema(z.object({}))).toBe(true);
    expect(isStandardSchema(tinySchema)).toBe(true);
    expect(isStandardSchema({ type: 'object' })).toBe(false);
    expect(isStandardSchema({ '~standard': {} })).toBe(false);
    expect(isStandardSchema(null)).toBe(false);
  });
});

describe('formatPath', () => {
  it('joins keys and path segments with dots, root when empty', () => {
    expect(formatPath([])).toBe('(root)');
    expect(formatPath(['a', 0, { key: 'b' }])).toBe('a.0.b');
  });
});

describe('toolSchema with a schema rendering plain JSON', () => {
  const rendering = (vendor: string, rendered: Record<string, unknown>): StandardSchemaV1 =>
    ({
      '~standard': {
        version: 1,
        vendor,
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => rendered, output: () => rendered },
      },
    }) as StandardSchemaV1;

  it('lists what a plain-JSON vendor renders as it is, and copies what others render', () => {
    const rendered = { type: 'object', properties: { q: { type: 'string' } } };
    expect(toolSchema(rendering(PLAIN_JSON_SCHEMA_VENDOR, rendered), 'input', 's').jsonSchema).toBe(
      rendered,
    );
    const other = toolSchema(rendering('other', rendered), 'input', 's').jsonSchema;
    expect(other).not.toBe(rendered);
    expect(other).toEqual(rendered);
  });
});

describe('toolSchema compiles each JSON Schema afresh', () => {
  // Fails the meta-schema check; Ajv alone would compile it (a string minLength is ignored).
  const metaInvalid = () => ({
    type: 'object',
    properties: { a: { type: 'string', minLength: 'three' } },
  });

  it.each(['input', 'output'] as const)(
    'fails the same invalid %s schema twice, with the same message',
    (role) => {
      const schema = metaInvalid();
      const first = thrownBy(() => toolSchema(schema, role, 'inputSchema of tool "t"'));
      const second = thrownBy(() => toolSchema(schema, role, 'inputSchema of tool "t"'));
      expect(first.code).toBe('invalid_schema');
      expect(second.message).toBe(first.message);
      expect(first.message).toContain('minLength');
    },
  );

  it.each(['input', 'output'] as const)(
    'a bad %s schema with an $id does not poison a later good one with the same $id',
    async (role) => {
      const $id = `https://schemas.example/${role}-poison`;
      const bad = { ...metaInvalid(), $id };
      expect(thrownBy(() => toolSchema(bad, role, 'first')).code).toBe('invalid_schema');
      const good = toolSchema(
        { $id, type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        role,
        'second',
      );
      expect(await good.validate({ n: 1 })).toMatchObject({ ok: true });
      expect(await good.validate({ n: 'one' })).toMatchObject({ ok: false });
      expect(thrownBy(() => toolSchema(bad, role, 'first')).message).toContain('minLength');
    },
  );

  it('validates two schemas of the same $id each by its own rules', async () => {
    const $id = 'https://schemas.example/shared';
    const numbers = toolSchema(
      { $id, type: 'object', properties: { v: { type: 'number' } }, required: ['v'] },
      'input',
      'numbers',
    );
    const strings = toolSchema(
      { $id, type: 'object', properties: { v: { type: 'string' } }, required: ['v'] },
      'input',
      'strings',
    );
    expect(await numbers.validate({ v: 1 })).toMatchObject({ ok: true });
    expect(await strings.validate({ v: 1 })).toMatchObject({ ok: false });
    expect(await strings.validate({ v: 'x' })).toMatchObject({ ok: true });
  });
});
