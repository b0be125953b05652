import { describe, expect, it } from 'vitest';
import { closeObjectSchemas, isPlainObject, schemaPropertyNames } from './json-schema.js';

describe('isPlainObject', () => {
  it('accepts object literals and null-prototype objects', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
  });

  it('rejects null, arrays, primitives, functions and class instances', () => {
    class Point {
      x = 1;
    }
    for (const value of [
      null,
      undefined,
      [],
      [1],
      'x',
      1,
      true,
      () => 1,
      new Date(),
      new Point(),
    ]) {
      expect(isPlainObject(value), String(value)).toBe(false);
    }
  });
});

describe('schemaPropertyNames', () => {
  it('lists the properties of an object schema and of its allOf members', () => {
    const names = schemaPropertyNames({
      type: 'object',
      properties: { path: { type: 'string' } },
      allOf: [
        { properties: { mode: { type: 'string' } } },
        { allOf: [{ properties: { depth: { type: 'number' } } }] },
      ],
    });
    expect([...names].sort()).toStrictEqual(['depth', 'mode', 'path']);
  });

  it('is empty for a schema without properties', () => {
    expect(schemaPropertyNames({ type: 'object' }).size).toBe(0);
  });
});

describe('closeObjectSchemas', () => {
  it('closes object schemas with properties, nested ones included', () => {
    const closed = closeObjectSchemas({
      type: 'object',
      properties: {
        user: { type: 'object', properties: { id: { type: 'string' } } },
        items: { type: 'array', items: { type: 'object', properties: { n: { type: 'number' } } } },
        pair: { type: 'array', prefixItems: [{ type: 'object', properties: { a: {} } }] },
      },
      $defs: { node: { type: 'object', properties: { v: {} } } },
    });
    expect(closed).toStrictEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        user: {
          type: 'object',
          properties: { id: { type: 'string' } },
          additionalProperties: false,
        },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { n: { type: 'number' } },
            additionalProperties: false,
          },
        },
        pair: {
          type: 'array',
          prefixItems: [{ type: 'object', properties: { a: {} }, additionalProperties: false }],
        },
      },
      $defs: { node: { type: 'object', properties: { v: {} }, additionalProperties: false } },
    });
  });

  it('leaves open schemas and composition subschemas as they are', () => {
    const schema = {
      type: 'object',
      properties: {
        open: { type: 'object', properties: { a: {} }, additionalProperties: true },
        typed: { type: 'object', properties: { a: {} }, additionalProperties: { type: 'number' } },
        patterned: { type: 'object', properties: { a: {} }, patternProperties: { '^x': {} } },
        referenced: { $ref: '#/$defs/x', properties: { a: {} } },
        either: { anyOf: [{ type: 'object', properties: { a: {} } }], properties: { b: {} } },
      },
    };
    const closed = closeObjectSchemas(schema) as { properties: Record<string, unknown> };
    expect(closed.properties).toStrictEqual(schema.properties);
  });

  it('keeps properties and definitions named __proto__ as they are', () => {
    const schema = JSON.parse(
      '{"type": "object", "properties": {"__proto__": {"type": "object", "properties": {"a": {}}}},' +
        ' "$defs": {"__proto__": {"type": "string"}}}',
    );
    const closed = closeObjectSchemas(schema) as Record<string, Record<string, unknown>>;
    expect(Object.keys(closed.properties ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(closed.properties)).toBe(Object.prototype);
    expect(JSON.stringify(closed)).toBe(
      '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"a":{}},"additionalProperties":false}},"$defs":{"__proto__":{"type":"string"}},"additionalProperties":false}',
    );
  });

  it('does not mutate the schema it is given', () => {
    const schema = { type: 'object', properties: { a: { type: 'object', properties: {} } } };
    const before = structuredClone(schema);
    closeObjectSchemas(schema);
    expect(schema).toStrictEqual(before);
  });
});
