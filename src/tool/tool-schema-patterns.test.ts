import { describe, expect, it } from 'vitest';
import { toolSchema } from './tool-schema.js';

// A `pattern` comes from a tool's schema (a server's, for remote tools) and is tested on
// arguments from a model: both hostile. It must take linear time.
describe('toolSchema patterns', () => {
  it('checks patterns as JSON Schema says, \\u escapes included', async () => {
    const schema = toolSchema(
      {
        type: 'object',
        properties: {
          code: { type: 'string', pattern: '^[0-9]{4}$' },
          name: { type: 'string', pattern: '^\\u00e9+$' },
        },
        patternProperties: { '^x-[a-z]+$': { type: 'number' } },
      },
      'input',
      'test schema',
    );
    expect(await schema.validate({ code: '1234', name: 'éé', 'x-a': 1 })).toMatchObject({
      ok: true,
    });
    expect(await schema.validate({ code: '12345' })).toMatchObject({ ok: false });
    expect(await schema.validate({ name: 'e' })).toMatchObject({ ok: false });
    expect(await schema.validate({ 'x-a': 'one' })).toMatchObject({ ok: false });
  });

  it('tests a catastrophic pattern on a megabyte argument in linear time', async () => {
    const schema = toolSchema(
      { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } },
      'input',
      'test schema',
    );
    expect(await schema.validate({ a: `${'a'.repeat(1_000_000)}!` })).toMatchObject({ ok: false });
    expect(await schema.validate({ a: 'a'.repeat(1_000_000) })).toMatchObject({ ok: true });
  }, 30_000);

  it('refuses a pattern RE2 cannot run, saying why', () => {
    expect(() =>
      toolSchema(
        { type: 'object', properties: { a: { type: 'string', pattern: '^(?=a)a$' } } },
        'input',
        'test schema',
      ),
    ).toThrow(/cannot be matched in linear time .*no lookarounds or backreferences/);
  });
});
