import type { ErrorObject } from 'ajv/dist/2020.js';
import { closest } from './closest.js';
import type { ConfigPath, ConfigProblem } from './config-problem.js';
import { describe } from './describe.js';
import { listOf } from './list-of.js';
import { type NoBranchParams, narrowBranches, type ValidateBranch } from './narrow-branches.js';
import type { SchemaAdvice, SchemaAdviceEntry } from './schema-advice.js';

/** Options of {@link schemaProblems}. */
export interface SchemaProblemsOptions {
  /**
   * How the document names a key that is not allowed where it stands ("a server key"),
   * unless `advice` names it. Default "an allowed key".
   */
  readonly what?: ((path: ConfigPath) => string) | undefined;
  /**
   * Validates a value against one branch of a `oneOf`/`anyOf`, so that only the errors of
   * the branch the value was meant for are reported (see `narrowBranches`). Without it, a
   * failed `oneOf` is reported as it is.
   */
  readonly validateBranch?: ValidateBranch | undefined;
  /** The JSON pointer of an object of the schema, to find its `advice`. */
  readonly pointerOf?: ((schema: object) => string | undefined) | undefined;
  /** Words for the problems at objects of the schema, by their JSON pointer. Default none. */
  readonly advice?: SchemaAdvice | undefined;
}

/**
 * Turns the errors of an Ajv validation (compiled with `allErrors` and `verbose`) into
 * problems that say what to fix: one per offending value, with the path of the value, its
 * description and a "did you mean" for misspelled keys and choices. Of a failed
 * `oneOf`/`anyOf`, only the branch the value was meant for is reported.
 *
 * @param errors `validate.errors` after a failed validation.
 * @param data The validated value, to turn JSON pointers into paths with list indexes.
 */
export function schemaProblems(
  errors: readonly ErrorObject[],
  data: unknown,
  options: SchemaProblemsOptions = {},
): ConfigProblem[] {
  const what = options.what ?? (() => 'an allowed key');
  const narrowed =
    options.validateBranch === undefined
      ? errors
      : narrowBranches(errors, data, options.validateBranch);
  const adviceOf = (error: ErrorObject): SchemaAdviceEntry | undefined => {
    const schema = error.parentSchema;
    if (typeof schema !== 'object' || schema === null || options.advice === undefined) return;
    const pointer = options.pointerOf?.(schema);
    return pointer !== undefined && Object.hasOwn(options.advice, pointer)
      ? options.advice[pointer]
      : undefined;
  };
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  const add = (path: ConfigPath, text: string): void => {
    const id = JSON.stringify(path);
    if (seen.has(id)) return;
    seen.add(id);
    problems.push({ path, text });
  };
  // Keys and names are reported first: errors inside a value whose key is wrong add nothing.
  const unknown: ConfigPath[] = [];
  for (const error of narrowed) {
    const at = toPath(error.instancePath, data);
    const advice = adviceOf(error);
    if (error.keyword === 'additionalProperties') {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const path = [...at, key];
      unknown.push(path);
      add(path, unknownKeyText(key, error, advice, advice?.what ?? what(at)));
    } else if (error.keyword === 'propertyNames') {
      const name = String((error.params as { propertyName: string }).propertyName);
      const path = [...at, name];
      unknown.push(path);
      add(
        path,
        textOf(advice, 'propertyNames', name) ?? `is not a usable name; ${nameRule(error.schema)}.`,
      );
    }
  }
  const under = (path: ConfigPath) =>
    unknown.some(
      (prefix) =>
        prefix.length <= path.length && prefix.every((part, index) => part === path[index]),
    );
  for (const error of narrowed) {
    const at = toPath(error.instancePath, data);
    if (under(at) || 'propertyName' in error) continue;
    const advice = adviceOf(error);
    switch (error.keyword) {
      case 'additionalProperties':
      case 'propertyNames':
        break;
      case 'required': {
        const key = String((error.params as { missingProperty: string }).missingProperty);
        // A key reported as a misspelling of the missing one says it all.
        if (misspelled(error.data, key, advice)) break;
        add(at, textOf(advice, 'required', key) ?? `has no "${key}"; add it.`);
        break;
      }
      case 'oneOf':
      case 'anyOf':
        add(at, branchText(error, advice));
        break;
      default:
        add(
          at,
          textOf(advice, error.keyword, error.data) ??
            `is ${describe(error.data)}; use ${advice?.rule ?? expected(error)}${quoting(error)}.`,
        );
    }
  }
  return problems;
}

function misspelled(value: unknown, key: string, advice: SchemaAdviceEntry | undefined): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.keys(value).some((written) =>
    advice?.synonyms !== undefined && Object.hasOwn(advice.synonyms, written)
      ? advice.synonyms[written] === key
      : written !== key && closest(written, [key]) !== undefined,
  );
}

function textOf(
  advice: SchemaAdviceEntry | undefined,
  keyword: string,
  subject: unknown,
): string | undefined {
  const text =
    advice?.text !== undefined && Object.hasOwn(advice.text, keyword)
      ? advice.text[keyword]
      : undefined;
  return typeof text === 'function' ? text(subject) : text;
}

function unknownKeyText(
  key: string,
  error: ErrorObject,
  advice: SchemaAdviceEntry | undefined,
  what: string,
): string {
  if (advice?.keys !== undefined && Object.hasOwn(advice.keys, key)) {
    const text = advice.keys[key];
    const data = error.data;
    return typeof text === 'function'
      ? text(
          typeof data === 'object' && data !== null
            ? Object.getOwnPropertyDescriptor(data, key)?.value
            : undefined,
        )
      : (text as string);
  }
  const allowed = Object.keys(propertiesOf(error.parentSchema));
  const synonym =
    advice?.synonyms !== undefined && Object.hasOwn(advice.synonyms, key)
      ? advice.synonyms[key]
      : undefined;
  const guess = synonym ?? closest(key, allowed);
  return guess === undefined
    ? (textOf(advice, 'additionalProperties', key) ??
        `is not ${what}; use ${listOf(allowed, 'or')}.`)
    : `is not ${what}; did you mean "${guess}"?`;
}

/** A failed `oneOf`/`anyOf` that `narrowBranches` kept: no branch fits, or several do. */
function branchText(error: ErrorObject, advice: SchemaAdviceEntry | undefined): string {
  const { missing, passingSchemas } = error.params as Partial<NoBranchParams> & {
    passingSchemas?: unknown;
  };
  if (Array.isArray(passingSchemas)) {
    return (
      textOf(advice, `${error.keyword}.many`, error.data) ??
      'matches more than one of the forms allowed here; keep the keys of one of them.'
    );
  }
  const custom = textOf(advice, error.keyword, error.data);
  if (custom !== undefined) return custom;
  if (missing !== undefined && missing.length > 0) {
    const keys = [...new Set(missing)];
    return keys.length === 2
      ? `has neither "${keys[0]}" nor "${keys[1]}"; add one of them.`
      : `has none of ${listOf(keys, 'or')}; add one of them.`;
  }
  return `is ${describe(error.data)}, which matches none of the forms allowed here.`;
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null || !('properties' in schema)) return {};
  const { properties } = schema;
  return typeof properties === 'object' && properties !== null
    ? (properties as Record<string, unknown>)
    : {};
}

function nameRule(schema: unknown): string {
  const pattern =
    typeof schema === 'object' && schema !== null && 'pattern' in schema ? schema.pattern : '';
  return typeof pattern === 'string' && pattern !== ''
    ? `write a name that matches ${pattern}`
    : 'rename it';
}

/** What the schema wants at the value, in words, with the schema's first example if any. */
function expected(error: ErrorObject): string {
  const schema = error.parentSchema as Record<string, unknown> | undefined;
  const example = Array.isArray(schema?.examples) ? schema.examples[0] : undefined;
  const kind = kindOf(error, schema);
  return example === undefined ? kind : `${kind}, such as ${JSON.stringify(example)}`;
}

function kindOf(error: ErrorObject, schema: Record<string, unknown> | undefined): string {
  const enumValues = schema?.enum;
  if (Array.isArray(enumValues)) {
    const choices = enumValues.map(String);
    const guess = typeof error.data === 'string' ? closest(error.data, choices) : undefined;
    return `one of ${choices.join(', ')}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`;
  }
  if (schema !== undefined && 'const' in schema) return JSON.stringify(schema.const);
  const types = [schema?.type].flat().filter((type) => type !== 'null' && type !== undefined);
  const type = types[0];
  const min = schema?.minimum ?? schema?.exclusiveMinimum;
  const max = schema?.maximum;
  const range =
    typeof min === 'number' && typeof max === 'number'
      ? ` from ${min}${schema?.exclusiveMinimum === undefined ? '' : ' (excluded)'} to ${max}`
      : '';
  switch (type) {
    case 'boolean':
      return 'true or false';
    case 'integer':
      return `an integer${range}`;
    case 'number':
      return `a number${range}`;
    case 'string':
      return schema?.minLength === 1
        ? 'a non-empty string'
        : typeof schema?.pattern === 'string'
          ? `a string that matches ${schema.pattern}`
          : 'a string';
    case 'array':
      return 'a list';
    case 'object':
      return 'a mapping';
    default:
      return error.message === undefined ? 'another value' : `a value that ${error.message}`;
  }
}

/** A hint for a value written as the wrong kind of YAML scalar: "true", 3000 for a string. */
function quoting(error: ErrorObject): string {
  const { data } = error;
  const type = [(error.parentSchema as Record<string, unknown> | undefined)?.type].flat();
  if (type.includes('boolean') && (data === 'true' || data === 'false')) return ' without quotes';
  if ((type.includes('integer') || type.includes('number')) && typeof data === 'string')
    return /^\d+$/.test(data) ? ' without quotes' : '';
  if (type.includes('string') && (typeof data === 'number' || typeof data === 'boolean'))
    return ` (quoted: "${data}")`;
  return '';
}

/** A JSON pointer as a path, with the indexes of lists as numbers. */
function toPath(pointer: string, data: unknown): ConfigPath {
  if (pointer === '') return [];
  const path: ConfigPath = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      path.push(Number(segment));
      node = node[Number(segment)];
    } else {
      path.push(segment);
      node =
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return path;
}
