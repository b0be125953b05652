import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { linearRegExp } from '../../tool/index.js';

type AjvEngine = Ajv | Ajv2019 | Ajv2020;
type FormatsPlugin = (ajv: AjvEngine) => unknown;
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin);

/** An engine as the SDK makes its own, but matching patterns with {@link linearRegExp}. */
const engine = <E extends AjvEngine>(Engine: new (options: object) => E): E => {
  const ajv = new Engine({
    code: { regExp: linearRegExp },
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    // Every server's schemas go through one engine: registered under their `$id`, one
    // server's schema would answer for another's of the same `$id`, and a schema that
    // failed to compile would stay behind under it.
    addUsedSchema: false,
  });
  addFormats(ajv);
  return ajv;
};

const URIS = {
  '2020-12': [
    'https://json-schema.org/draft/2020-12/schema',
    'http://json-schema.org/draft/2020-12/schema',
  ],
  '2019-09': [
    'https://json-schema.org/draft/2019-09/schema',
    'http://json-schema.org/draft/2019-09/schema',
  ],
  'draft-07': [
    'https://json-schema.org/draft-07/schema',
    'http://json-schema.org/draft-07/schema',
    'https://json-schema.org/draft-06/schema',
    'http://json-schema.org/draft-06/schema',
  ],
} as const;

/**
 * The JSON Schema validator hintgate's MCP clients use for what a server sends against the
 * server's own schemas (`structuredContent` against a tool's output schema): Ajv as the
 * SDK's validator sets it up, one engine per dialect as the SDK picks them (by `$schema`: none or 2020-12,
 * 2019-09, draft-07 and draft-06), except that `pattern` and `patternProperties` are matched
 * with re2js in linear time. A server could otherwise hold the whole gateway with a result
 * that a pattern of its own schema backtracks on. A schema whose pattern RE2 cannot run
 * fails to compile, as a schema of an unknown dialect does with the SDK's validator.
 *
 * Unlike the SDK's validator, a schema is never looked up by its `$id`: each is compiled
 * on its own and nothing of it is kept by the engine, so a server cannot answer for
 * another's schema of the same `$id`, and a schema that failed to compile fails again.
 * What it compiled is remembered by the schema object (weakly), not by its content.
 */
export function linearSchemaValidator(): jsonSchemaValidator {
  const engines = new Map<keyof typeof URIS, AjvEngine>();
  const engineFor = (dialect: keyof typeof URIS): AjvEngine => {
    let ajv = engines.get(dialect);
    if (ajv === undefined) {
      ajv =
        dialect === '2020-12'
          ? engine(Ajv2020)
          : dialect === '2019-09'
            ? engine(Ajv2019)
            : engine(Ajv);
      engines.set(dialect, ajv);
    }
    return ajv;
  };
  const dialectOf = (schema: JsonSchemaType): keyof typeof URIS => {
    const declared = (schema as { $schema?: unknown }).$schema;
    if (typeof declared !== 'string') return '2020-12';
    const uri = declared.endsWith('#') ? declared.slice(0, -1) : declared;
    for (const dialect of Object.keys(URIS) as (keyof typeof URIS)[]) {
      if ((URIS[dialect] as readonly string[]).includes(uri)) return dialect;
    }
    throw new Error(
      `JSON Schema declares an unsupported dialect ("$schema": ${JSON.stringify(declared.slice(0, 200))}); supported are 2020-12, 2019-09, draft-07 and draft-06.`,
    );
  };
  // Compiled once per schema object: a tool's listed output schema is handed over on every
  // call of it (the client then needs no parsed copy of the whole list to find it).
  const compiled = new WeakMap<object, JsonSchemaValidator<unknown>>();
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const known = compiled.get(schema);
      if (known !== undefined) return known as JsonSchemaValidator<T>;
      const made = compile<T>(schema);
      compiled.set(schema, made as JsonSchemaValidator<unknown>);
      return made;
    },
  };
  function compile<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const ajv = engineFor(dialectOf(schema));
    let check: ReturnType<AjvEngine['compile']>;
    try {
      check = ajv.compile(schema);
    } finally {
      // The compiled function stands alone: keep nothing of the schema in the engine, so
      // that compiling it again (or another of the same `$id`) starts from scratch.
      ajv.removeSchema(schema);
    }
    return (input) =>
      check(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: ajv.errorsText(check.errors) };
  }
}
