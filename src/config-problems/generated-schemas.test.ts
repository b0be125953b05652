import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_SCHEMAS,
  META_SCHEMA_MODULE,
  metaSchemaValidatorCode,
  schemaValidatorCode,
} from '../../scripts/gen-schemas.js';

const root = new URL('../../', import.meta.url);

describe.each(GENERATED_SCHEMAS)('$module', ({ schema, module }) => {
  const code = readFileSync(new URL(module, root), 'utf8');

  it(`is what npm run gen:schemas makes of ${schema} (run it after changing the schema)`, () => {
    expect(code).toBe(schemaValidatorCode(readFileSync(new URL(schema, root), 'utf8'), schema));
  });

  it('imports nothing, so that it runs on any platform without reading the schema', () => {
    expect(code).not.toMatch(/\bimport\b|\brequire\(/);
  });
});

describe(META_SCHEMA_MODULE, () => {
  it("is what npm run gen:schemas makes of Ajv's 2020-12 meta-schema (run it after updating Ajv)", () => {
    expect(readFileSync(new URL(META_SCHEMA_MODULE, root), 'utf8')).toBe(metaSchemaValidatorCode());
  });
});
