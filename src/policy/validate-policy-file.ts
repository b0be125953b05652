import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { type ConfigProblem, schemaProblems } from '../config-problems/index.js';

/** The shipped schema, beside `src/` and `dist/` alike. */
const SCHEMA_URL = new URL('../../schema/hintgate-policy.schema.json', import.meta.url);

let compiled: ValidateFunction | undefined;

/**
 * Checks a parsed policy file against the shipped `schema/hintgate-policy.schema.json`
 * (Ajv, draft 2020-12, every error) and returns what is wrong, unlocated.
 */
export function validatePolicyFile(value: unknown): ConfigProblem[] {
  compiled ??= new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
  }).compile(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object);
  if (compiled(value)) return [];
  return schemaProblems(compiled.errors ?? [], value, {
    what: (path) => (path.length === 0 ? 'a policy key' : 'an allowed key here'),
  });
}
