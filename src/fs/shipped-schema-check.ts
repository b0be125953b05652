import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { type ConfigProblem, schemaProblems } from '../config-problems/index.js';

/**
 * A check of parsed configuration against a JSON Schema the package ships (Ajv, draft
 * 2020-12, every error), returning what is wrong, unlocated. The schema file is read and
 * compiled on the first check. `what` names an unknown key: at the top (`path` empty) or
 * further down.
 */
export function shippedSchemaCheck(
  schemaUrl: URL,
  what: (path: readonly (string | number)[]) => string,
): (value: unknown) => ConfigProblem[] {
  let compiled: ValidateFunction | undefined;
  return (value) => {
    compiled ??= new Ajv2020({
      allErrors: true,
      verbose: true,
      strict: true,
      strictRequired: false,
    }).compile(JSON.parse(readFileSync(schemaUrl, 'utf8')) as object);
    if (compiled(value)) return [];
    return schemaProblems(compiled.errors ?? [], value, { what });
  };
}
