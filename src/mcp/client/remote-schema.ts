import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { HintgateError } from '../../errors/index.js';
import {
  isPlainObject,
  type JsonSchemaObject,
  PLAIN_JSON_SCHEMA_VENDOR,
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

/** Checks a value against a schema. */
type Validate = (
  value: unknown,
) => ValidationOutcome<unknown> | Promise<ValidationOutcome<unknown>>;

/** An object that checks values: a `ToolSchema`, a {@link FallbackValidator}. */
interface Validator {
  validate(value: unknown): ValidationOutcome<unknown> | Promise<ValidationOutcome<unknown>>;
}

/** Takes any value as it is: for output schemas, which the MCP client checks itself. */
const PASS_THROUGH: Validator = { validate: (value) => ({ ok: true, value }) };

/** How a listed schema renders: the listed object, copied, for input and output alike. */
class ListedRendering {
  readonly #listed: JsonSchemaObject;

  constructor(listed: JsonSchemaObject) {
    this.#listed = listed;
  }

  input(): Record<string, unknown> {
    return { ...this.#listed };
  }

  output(): Record<string, unknown> {
    return { ...this.#listed };
  }
}

/**
 * The Standard Schema part of a listed schema. Methods of a class rather than closures made
 * per schema: a gateway in front of a server of thousands of tools makes one per tool.
 */
class ListedSchemaProps {
  readonly version = 1;
  readonly vendor = PLAIN_JSON_SCHEMA_VENDOR;
  readonly jsonSchema: ListedRendering;
  readonly #validator: Validator;

  constructor(listed: JsonSchemaObject, validator: Validator) {
    this.jsonSchema = new ListedRendering(listed);
    this.#validator = validator;
  }

  validate(
    value: unknown,
  ):
    | StandardSchemaV1.Result<Record<string, unknown>>
    | Promise<StandardSchemaV1.Result<Record<string, unknown>>> {
    const outcome = this.#validator.validate(value);
    return outcome instanceof Promise ? outcome.then(toResult) : toResult(outcome);
  }
}

/**
 * A schema that renders `listed` exactly as the server gave it and validates with
 * `validator` (a `ToolSchema`, say). Used where hintgate's own compilation of `listed` is
 * not what should be listed, or would alter results.
 */
export function listedSchema(listed: JsonSchemaObject, validator: Validator): ListedSchema {
  return { '~standard': new ListedSchemaProps(listed, validator) };
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

/** A stand-in validator for a server's input schema that hintgate's validator rejects. */
export interface FallbackValidator {
  /** Checks arguments leniently, or only that they are an object. */
  readonly validate: (value: unknown) => ValidationOutcome<unknown>;
  /** What hintgate does instead, for reports. */
  readonly problem: string;
}

/**
 * How arguments are checked for a tool whose server schema hintgate's validator rejects:
 * leniently when setting `$schema` aside makes it compile, else not at all (the server
 * still checks its own arguments).
 */
export function fallbackInputValidator(
  listed: JsonSchemaObject,
  reason: string,
): FallbackValidator {
  const lenient = compileLeniently(listed, 'input');
  if (lenient !== undefined) {
    return {
      validate: (value) => lenient.validate(value) as ValidationOutcome<unknown>,
      problem: `its input schema declares $schema ${JSON.stringify(listed.$schema)}; arguments are checked with the JSON Schema 2020-12 rules instead`,
    };
  }
  return {
    validate: permissive,
    problem: `its input schema cannot be compiled (${reason}); arguments are sent unchecked and the server checks them`,
  };
}

/**
 * The input schema of a tool whose server schema hintgate's validator rejects (see
 * {@link fallbackInputValidator}), listed as the server gave it.
 */
export function fallbackInputSchema(listed: JsonSchemaObject, reason: string): FallbackSchema {
  const fallback = fallbackInputValidator(listed, reason);
  return { schema: listedSchema(listed, fallback), problem: fallback.problem };
}

/** The validator of {@link lazyInputSchema}: compiled on its first use. */
class LazyInputValidator implements Validator {
  readonly #listed: JsonSchemaObject;
  readonly #where: string;
  readonly #onProblem: (problem: string) => void;
  #validate: Validate | undefined;

  constructor(listed: JsonSchemaObject, where: string, onProblem: (problem: string) => void) {
    this.#listed = listed;
    this.#where = where;
    this.#onProblem = onProblem;
  }

  validate(value: unknown): ValidationOutcome<unknown> | Promise<ValidationOutcome<unknown>> {
    this.#validate ??= this.#compile();
    return this.#validate(value);
  }

  #compile(): Validate {
    try {
      const compiled = toolSchema(this.#listed, 'input', this.#where);
      return (value) => compiled.validate(value);
    } catch (error) {
      const reason =
        error instanceof HintgateError && error.cause instanceof Error
          ? error.cause.message
          : (error as Error).message;
      const fallback = fallbackInputValidator(this.#listed, reason);
      this.#onProblem(fallback.problem);
      return fallback.validate;
    }
  }
}

/**
 * The input schema of a remote tool, listed as the server gave it and compiled on its first
 * validation rather than when listed, so that a server of thousands of tools costs only the
 * tools that are called. A schema hintgate's validator rejects then falls back as
 * {@link fallbackInputValidator} says, and `onProblem` is told what is done instead, once.
 */
export function lazyInputSchema(
  listed: JsonSchemaObject,
  where: string,
  onProblem: (problem: string) => void,
): ListedSchema {
  return listedSchema(listed, new LazyInputValidator(listed, where, onProblem));
}

/** How a server's output schema is carried. */
export interface RemoteOutputSchema {
  /** Lists the server's schema; passes results through unchanged. Absent when not an object schema. */
  readonly schema?: ListedSchema;
  /**
   * Whether a validator can compile it; when not, results are not checked against it.
   * Absent when it was not compiled yet (`compile: false`): then see {@link outputSchemaProblem}.
   */
  readonly compiles?: boolean;
  /** What is done differently, for reports. */
  readonly problem?: string;
}

const NOT_COMPILED = 'its output schema cannot be compiled, so results are not checked against it';

/**
 * What is done differently because a validator cannot compile `listed`, an object output
 * schema; `undefined` when one can.
 */
export function outputSchemaProblem(listed: JsonSchemaObject): string | undefined {
  return compileLeniently(listed, 'output') === undefined ? NOT_COMPILED : undefined;
}

/**
 * The output schema of a remote tool. hintgate does not check or reshape results itself:
 * the MCP client checks `structuredContent` against the listed schema, and the result
 * reaches the caller as the server sent it. With `compile: false` (default true), whether a
 * validator can compile it is left for {@link outputSchemaProblem} to tell when first needed.
 */
export function remoteOutputSchema(
  listed: unknown,
  compile = true,
): RemoteOutputSchema | undefined {
  if (listed === undefined) return undefined;
  if (!isPlainObject(listed)) {
    return { compiles: false, problem: 'its output schema is not an object; it is ignored' };
  }
  const notCompiled = compile ? outputSchemaProblem(listed) : undefined;
  const problems = [
    ...(listed.type === 'object'
      ? []
      : ['its output schema does not describe an object, so it is not listed by hintgate']),
    ...(notCompiled === undefined ? [] : [notCompiled]),
  ];
  return {
    ...(listed.type === 'object' ? { schema: listedSchema(listed, PASS_THROUGH) } : {}),
    ...(compile ? { compiles: notCompiled === undefined } : {}),
    ...(problems.length === 0 ? {} : { problem: problems.join('; ') }),
  };
}
