import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import {
  isPlainObject,
  type JsonSchemaObject,
  toolSchema,
  type ValidationOutcome,
} from '../../tool/index.js';

/** A schema object that both validates (Standard Schema) and renders (Standard JSON Schema). */
export type ListedSchema = StandardSchemaV1<unknown, Record<string, unknown>> &
  StandardJSONSchemaV1<unknown, Record<string, unknown>>;

/** A stand-in for a server's schema that hintgate's validator cannot take as it is. */
export interface FallbackSchema {
  /** Lists the server's schema unchanged; validates what it can. */
  readonly schema: ListedSchema;
  /** What hintgate does instead, for reports. */
  readonly problem: string;
}

type SchemaRole = Parameters<typeof toolSchema>[1];

const DIALECT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** Splits `a.b: must be string; c: is required` into Standard Schema issues with paths. */
const toIssues = (message: string): StandardSchemaV1.Issue[] =>
  message.split('; ').map((part) => {
    const at = part.indexOf(': ');
    if (at < 0) return { message: part };
    const field = part.slice(0, at);
    return { message: part.slice(at + 2), path: field === '(root)' ? [] : field.split('.') };
  });

const toResult = (
  outcome: ValidationOutcome<unknown>,
): StandardSchemaV1.Result<Record<string, unknown>> =>
  outcome.ok
    ? { value: outcome.value as Record<string, unknown> }
    : { issues: toIssues(outcome.message) };

/**
 * A schema that renders `listed` exactly as the server gave it and validates with
 * `validate`. Used where hintgate's own compilation of `listed` is not what should be
 * listed, or would alter results.
 */
export function listedSchema(
  listed: JsonSchemaObject,
  validate: (value: unknown) => ValidationOutcome<unknown> | Promise<ValidationOutcome<unknown>>,
): ListedSchema {
  return {
    '~standard': {
      version: 1,
      vendor: 'hintgate-mcp',
      validate: (value) => {
        const outcome = validate(value);
        return outcome instanceof Promise ? outcome.then(toResult) : toResult(outcome);
      },
      jsonSchema: { input: () => ({ ...listed }), output: () => ({ ...listed }) },
    },
  };
}

const compiles = (schema: JsonSchemaObject, role: SchemaRole) => {
  try {
    return toolSchema(schema, role, 'schema');
  } catch {
    return undefined;
  }
};

/**
 * Compiles a server's schema as hintgate's validator (JSON Schema 2020-12) would, allowing
 * one concession: a `$schema` naming another draft is set aside, since the keywords tool
 * schemas use mean the same in draft-07 and 2020-12. `undefined` when even that fails.
 */
export function compileLeniently(schema: JsonSchemaObject, role: SchemaRole) {
  const strict = compiles(schema, role);
  if (strict !== undefined) return strict;
  if (typeof schema.$schema !== 'string' || schema.$schema === DIALECT_2020) return undefined;
  const { $schema: _dialect, ...rest } = schema;
  return compiles(rest, role);
}

const permissive = (value: unknown): ValidationOutcome<unknown> =>
  isPlainObject(value)
    ? { ok: true, value }
    : { ok: false, message: '(root): arguments must be an object' };

/**
 * The input schema of a tool whose server schema hintgate's validator rejects: checked
 * leniently when setting `$schema` aside makes it compile, else not checked at all (the
 * server still checks its own arguments). Either way, listed as the server gave it.
 */
export function fallbackInputSchema(listed: JsonSchemaObject, reason: string): FallbackSchema {
  const lenient = compileLeniently(listed, 'input');
  if (lenient !== undefined) {
    return {
      schema: listedSchema(listed, (value) => lenient.validate(value)),
      problem: `its input schema declares $schema ${JSON.stringify(listed.$schema)}; arguments are checked with the JSON Schema 2020-12 rules instead`,
    };
  }
  return {
    schema: listedSchema(listed, permissive),
    problem: `its input schema cannot be compiled (${reason}); arguments are sent unchecked and the server checks them`,
  };
}

/** How a server's output schema is carried. */
export interface RemoteOutputSchema {
  /** Lists the server's schema; passes results through unchanged. Absent when not an object schema. */
  readonly schema?: ListedSchema;
  /** Whether a validator can compile it; when not, results are not checked against it. */
  readonly compiles: boolean;
  /** What is done differently, for reports. */
  readonly problem?: string;
}

/**
 * The output schema of a remote tool. hintgate does not check or reshape results itself:
 * the MCP client checks `structuredContent` against the listed schema, and the result
 * reaches the caller as the server sent it.
 */
export function remoteOutputSchema(listed: unknown): RemoteOutputSchema | undefined {
  if (listed === undefined) return undefined;
  if (!isPlainObject(listed)) {
    return { compiles: false, problem: 'its output schema is not an object; it is ignored' };
  }
  const ok = compileLeniently(listed, 'output') !== undefined;
  const problems = [
    ...(listed.type === 'object'
      ? []
      : ['its output schema does not describe an object, so it is not listed by hintgate']),
    ...(ok ? [] : ['its output schema cannot be compiled, so results are not checked against it']),
  ];
  return {
    ...(listed.type === 'object'
      ? { schema: listedSchema(listed, (value) => ({ ok: true, value })) }
      : {}),
    compiles: ok,
    ...(problems.length === 0 ? {} : { problem: problems.join('; ') }),
  };
}
