import { describe, expect, it } from 'vitest';
import { linearSchemaValidator } from './linear-schema-validator.js';

const schema = (dialect?: string) => ({
  ...(dialect === undefined ? {} : { $schema: dialect }),
  type: 'object',
  properties: {
    a: { type: 'string', pattern: '^(a+)+$' },
    when: { type: 'string', format: 'date' },
  },
});

describe('linearSchemaValidator', () => {
  it.each([
    undefined,
    'https://json-schema.org/draft/2020-12/schema',
    'https://json-schema.org/draft/2019-09/schema',
    'http://json-schema.org/draft-07/schema#',
    'http://json-schema.org/draft-06/schema#',
  ])(
    'checks a server result against a catastrophic pattern in linear time ($schema %s)',
    (dialect) => {
      const validate = linearSchemaValidator().getValidator(schema(dialect));
      expect(validate({ a: 'aaa', when: '2026-01-02' })).toMatchObject({ valid: true });
      expect(validate({ a: `${'a'.repeat(1_000_000)}!` })).toMatchObject({ valid: false });
      expect(validate({ when: 'yesterday' })).toMatchObject({ valid: false });
    },
    30_000,
  );

  it('refuses an unknown dialect and a pattern RE2 cannot run', () => {
    const validator = linearSchemaValidator();
    expect(() =>
      validator.getValidator({ $schema: 'https://example.com/s', type: 'object' }),
    ).toThrow(/unsupported dialect/);
    expect(() =>
      validator.getValidator({
        type: 'object',
        properties: { a: { type: 'string', pattern: '(a)\\1' } },
      }),
    ).toThrow(/cannot be matched in linear time/);
  });
});

describe('linearSchemaValidator keeps nothing of a schema', () => {
  const badPattern = (id: string) => ({
    $id: id,
    type: 'object',
    properties: { a: { type: 'string', pattern: '(a)\\1' } },
  });

  it('fails the same schema twice with the same message', () => {
    const validator = linearSchemaValidator();
    const schema = badPattern('https://schemas.example/twice');
    const messageOf = (): string => {
      try {
        validator.getValidator(schema);
      } catch (error) {
        return (error as Error).message;
      }
      return 'compiled';
    };
    const first = messageOf();
    expect(first).toContain('linear time');
    expect(messageOf()).toBe(first);
  });

  it('a bad schema with an $id does not poison a later good one with the same $id', () => {
    const validator = linearSchemaValidator();
    const $id = 'https://schemas.example/poison';
    expect(() => validator.getValidator(badPattern($id))).toThrow(/linear time/);
    const validate = validator.getValidator({
      $id,
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    expect(validate({ n: 1 })).toMatchObject({ valid: true });
    expect(validate({ n: 'one' })).toMatchObject({ valid: false });
  });

  it("never answers for one server's schema with another's of the same $id", () => {
    const validator = linearSchemaValidator();
    const $id = 'https://schemas.example/shared';
    const lax = validator.getValidator({ $id, type: 'object' });
    const strict = validator.getValidator({
      $id,
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    expect(lax({})).toMatchObject({ valid: true });
    expect(strict({})).toMatchObject({ valid: false });
  });
});
