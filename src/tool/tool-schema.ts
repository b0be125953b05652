import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { HintgateError } from '../errors/index.js';
import { closeObjectSchemas, isPlainObject, type JsonSchemaObject } from './json-schema.js';
import { validate as validateMetaSchema } from './json-schema-meta.generated.js';
import { linearRegExp } from './linear-reg-exp.js';

/** A schema as a tool definition accepts it: any Standard Schema, or a JSON Schema object. */
export type SchemaInput = StandardSchemaV1 | JsonSchemaObject;

/** Outcome of validating a value. */
export type ValidationOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** A schema ready for use: its JSON Schema rendering and a validator. */
export interface ToolSchema<T = unknown> {
  /** JSON Schema (draft 2020-12) for MCP tool lists and model tool lists. */
  readonly jsonSchema: JsonSchemaObject;
  /**
   * Validates and parses a value. For input, defaults are applied; for output, fields the
   * schema does not name are stripped. Never mutates `value`.
   */
  validate(value: unknown): ValidationOutcome<T> | Promise<ValidationOutcome<T>>;
}

/** Whether a schema describes tool arguments (`input`) or structured results (`output`). */
export type SchemaRole = 'input' | 'output';

type FormatsPlugin = (ajv: Ajv2020) => unknown;
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin);

/**
 * A new validator instance with the options tool schemas of `role` are compiled with. It
 * does not check schemas against the meta-schema when it compiles them (`checkSchema`
 * does); `validateSchema` called on it still does.
 */
export const makeAjv = (role: SchemaRole): Ajv2020 => {
  const ajv = new Ajv2020({
    code: { regExp: linearRegExp },
    strict: false,
    allErrors: false,
    logger: false,
    // One instance compiles every tool's schema: registering a schema under its `$id` would
    // make a second schema with the same `$id` (the same tool defined twice) fail to compile.
    addUsedSchema: false,
    // Checked against the meta-schema by checkSchema instead (see there).
    validateSchema: false,
    useDefaults: role === 'input',
    removeAdditional: role === 'output',
  });
  addFormats(ajv);
  return ajv;
};
const validators: Record<SchemaRole, Ajv2020 | undefined> = { input: undefined, output: undefined };
const ajvFor = (role: SchemaRole): Ajv2020 => {
  validators[role] ??= makeAjv(role);
  return validators[role];
};

/** True when `value` implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** Turns a path of keys into `a.b.0.c` (or `(root)` for an empty path). */
export function formatPath(path: ReadonlyArray<PropertyKey | { key: PropertyKey }>): string {
  if (path.length === 0) return '(root)';
  return path
    .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
    .join('.');
}

const formatAjvError = (error: ErrorObject): string => {
  const segments = error.instancePath.split('/').slice(1);
  const params = error.params as Record<string, unknown>;
  if (typeof params.missingProperty === 'string') segments.push(params.missingProperty);
  const field = formatPath(segments.map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~')));
  const extra =
    typeof params.additionalProperty === 'string' ? ` ('${params.additionalProperty}')` : '';
  return `${field}: ${error.message ?? 'is invalid'}${extra}`;
};

const DIALECT_2020 = 'https://json-schema.org/draft/2020-12/schema';

type MetaSchemaValidate = ((schema: unknown) => boolean) & {
  readonly errors?: ErrorObject[] | null;
};

/**
 * Throws what Ajv throws for a schema that is not valid JSON Schema, as Ajv would check it
 * itself. A schema of the 2020-12 dialect (no `$schema`, or that one) is checked with the
 * meta-schema's validator generated ahead of time (`npm run gen:schemas`), the same code
 * Ajv compiles from the meta-schema at run time: that compile (50-90 ms per instance) is no
 * longer part of a process's first tool definition. Another `$schema` is left to Ajv.
 */
const checkSchema = (ajv: Ajv2020, schema: JsonSchemaObject): void => {
  if (schema.$schema !== undefined && schema.$schema !== DIALECT_2020) {
    // Throws for a dialect it does not know, or a schema the dialect's meta-schema rejects.
    if (ajv.validateSchema(schema, true) !== true) {
      throw new Error(`schema is invalid: ${ajv.errorsText(ajv.errors)}`);
    }
    return;
  }
  const validate = validateMetaSchema as MetaSchemaValidate;
  if (!validate(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(validate.errors)}`);
};

const fromJsonSchema = <T>(
  schema: JsonSchemaObject,
  role: SchemaRole,
  where: string,
): ToolSchema<T> => {
  const compiled = role === 'output' ? closeObjectSchemas(schema) : schema;
  const ajv = ajvFor(role);
  let check: ValidateFunction;
  try {
    checkSchema(ajv, compiled);
    check = ajv.compile(compiled);
  } catch (error) {
    throw new HintgateError(
      'invalid_schema',
      `${where} is not a valid JSON Schema: ${(error as Error).message}. Fix the schema or pass a Standard Schema (for example a zod object).`,
      { cause: error },
    );
  } finally {
    // Ajv keeps what it compiled by schema object, checked against the meta-schema or not:
    // a schema that failed would compile unchecked on a second try. The compiled function
    // stands alone, so keep nothing; this also leaves nothing of a server's schemas behind.
    ajv.removeSchema(compiled);
  }
  // Defaults and stripping mutate the value, so work on a copy when either can happen.
  const mutates = role === 'output' || JSON.stringify(schema).includes('"default"');
  return {
    jsonSchema: schema,
    validate(value) {
      const data = mutates ? structuredClone(value) : value;
      if (check(data)) return { ok: true, value: data as T };
      return { ok: false, message: (check.errors ?? []).map(formatAjvError).join('; ') };
    },
  };
};

/**
 * The Standard Schema vendor of schemas that render JSON exactly as an MCP message gave it
 * (a server's listed schema, see `listedSchema` of the MCP client): plain JSON already, so
 * it is listed without the copy that strips what schema libraries attach to what they
 * render. A server of thousands of tools is not copied schema by schema.
 */
export const PLAIN_JSON_SCHEMA_VENDOR = 'hintgate-mcp';

const fromStandardSchema = <T>(
  schema: StandardSchemaV1,
  role: SchemaRole,
  where: string,
): ToolSchema<T> => {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  if (typeof props.jsonSchema?.input !== 'function') {
    throw new HintgateError(
      'invalid_schema',
      `${where} (a ${props.vendor} schema) cannot be rendered to JSON Schema for MCP. Use a library that implements Standard JSON Schema (zod 4.2 or later, for example) or pass a JSON Schema object.`,
    );
  }
  let jsonSchema: JsonSchemaObject;
  try {
    const options = { target: 'draft-2020-12' } as const;
    const rendered =
      role === 'input' ? props.jsonSchema.input(options) : props.jsonSchema.output(options);
    // Libraries attach their own keys to what they render (zod 4 a hidden `~standard`, which
    // makes the OpenAI Agents SDK take the listed schema for a Standard Schema): list plain
    // JSON only.
    jsonSchema =
      props.vendor === PLAIN_JSON_SCHEMA_VENDOR && isPlainObject(rendered)
        ? rendered
        : (JSON.parse(JSON.stringify(rendered)) as JsonSchemaObject);
  } catch (error) {
    throw new HintgateError(
      'invalid_schema',
      `${where} cannot be rendered to JSON Schema: ${(error as Error).message}. Remove the parts JSON Schema cannot express (transforms, custom checks) from the schema.`,
      { cause: error },
    );
  }
  return {
    jsonSchema,
    validate(value) {
      const result = props.validate(value);
      return (result instanceof Promise ? result.then(standardOutcome) : standardOutcome(result)) as
        | ValidationOutcome<T>
        | Promise<ValidationOutcome<T>>;
    },
  };
};

/** A Standard Schema result as a validation outcome; one function for every schema. */
const standardOutcome = (result: StandardSchemaV1.Result<unknown>): ValidationOutcome<unknown> =>
  result.issues === undefined
    ? { ok: true, value: result.value }
    : {
        ok: false,
        message: result.issues
          .map((issue) => `${formatPath(issue.path ?? [])}: ${issue.message}`)
          .join('; '),
      };

/**
 * Normalizes a schema of a tool definition. `where` names it in error messages, for
 * example `inputSchema of tool "read_file"`.
 *
 * @throws HintgateError `invalid_schema` when the schema is neither a Standard Schema nor a
 * JSON Schema object, cannot be compiled or rendered, or does not describe an object.
 */
export function toolSchema<T = unknown>(
  schema: SchemaInput,
  role: SchemaRole,
  where: string,
): ToolSchema<T> {
  let normalized: ToolSchema<T>;
  if (isStandardSchema(schema)) normalized = fromStandardSchema<T>(schema, role, where);
  else if (isPlainObject(schema)) normalized = fromJsonSchema<T>(schema, role, where);
  else {
    throw new HintgateError(
      'invalid_schema',
      `${where} must be a Standard Schema (for example z.object({...})) or a JSON Schema object, got ${schema === null ? 'null' : typeof schema}.`,
    );
  }
  if (normalized.jsonSchema.type !== 'object') {
    throw new HintgateError(
      'invalid_schema',
      `${where} must describe an object (JSON Schema "type": "object"): MCP tool ${role === 'input' ? 'arguments' : 'structured results'} are always objects. Wrap the value in an object property.`,
    );
  }
  return normalized;
}
