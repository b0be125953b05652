import type { ErrorObject } from 'ajv/dist/2020.js';
import { closest } from './closest.js';
import type { ConfigPath, ConfigProblem } from './config-problem.js';
import { describe } from './describe.js';
import { listOf } from './list-of.js';

/** Options of {@link schemaProblems}. */
export interface SchemaProblemsOptions {
  /** How the document names a key that is not allowed where it stands ("a server key"). */
  readonly what?: ((path: ConfigPath) => string) | undefined;
}

/**
 * Turns the errors of an Ajv validation (compiled with `allErrors` and `verbose`) into
 * problems that say what to fix: one per offending value, with the path of the value, its
 * description and a "did you mean" for misspelled keys and choices. Errors of the branches
 * of a failed `oneOf`/`anyOf` are folded into one problem at the value.
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
  for (const error of errors) {
    const at = toPath(error.instancePath, data);
    if (error.keyword === 'additionalProperties') {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const allowed = Object.keys(propertiesOf(error.parentSchema));
      const guess = closest(key, allowed);
      const path = [...at, key];
      unknown.push(path);
      add(
        path,
        guess === undefined
          ? `is not ${what(at)}; use ${listOf(allowed, 'or')}.`
          : `is not ${what(at)}; did you mean "${guess}"?`,
      );
    } else if (error.keyword === 'propertyNames') {
      const name = String((error.params as { propertyName: string }).propertyName);
      const path = [...at, name];
      unknown.push(path);
      add(path, `is not a usable name; ${nameRule(error.schema)}.`);
    }
  }
  const under = (path: ConfigPath) =>
    unknown.some(
      (prefix) =>
        prefix.length <= path.length && prefix.every((part, index) => part === path[index]),
    );
  for (const error of errors) {
    const at = toPath(error.instancePath, data);
    if (under(at) || 'propertyName' in error) continue;
    switch (error.keyword) {
      case 'additionalProperties':
      case 'propertyNames':
        break;
      case 'required': {
        const key = String((error.params as { missingProperty: string }).missingProperty);
        add(at, `has no "${key}"; add it.`);
        break;
      }
      default:
        add(at, `is ${describe(error.data)}; use ${expected(error)}${quoting(error)}.`);
    }
  }
  return problems;
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

/** What the schema wants at the value, in words. */
function expected(error: ErrorObject): string {
  const schema = error.parentSchema as Record<string, unknown> | undefined;
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
