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
