import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  type ConfigProblem,
  type SchemaAdvice,
  schemaPointers,
  schemaProblems,
} from '../config-problems/index.js';

/**
 * A check of parsed configuration against a JSON Schema the package ships (Ajv, draft
 * 2020-12, every error), returning what is wrong, unlocated. The schema file is read and
 * compiled on the first check. `what` names an unknown key: at the top (`path` empty) or
 * further down, unless `advice` names it for its object of the schema. Of a failed
 * `oneOf`/`anyOf`, only the branch the value was meant for is reported.
 *
 * @param advice Words for problems at objects of the schema, by JSON pointer: what their
 *   keys are called, synonyms, advice for known mistakes. Default none.
 */
export function shippedSchemaCheck(
  schemaUrl: URL,
  what: (path: readonly (string | number)[]) => string,
  advice: SchemaAdvice = {},
): (value: unknown) => ConfigProblem[] {
  let check: ((value: unknown) => ConfigProblem[]) | undefined;
  return (value) => {
    check ??= compile(JSON.parse(readFileSync(schemaUrl, 'utf8')) as Record<string, unknown>);
    return check(value);
  };

  function compile(schema: Record<string, unknown>): (value: unknown) => ConfigProblem[] {
    const ajv = new Ajv2020({
      allErrors: true,
      verbose: true,
      strict: true,
      strictRequired: false,
    });
    const validate = ajv.compile(schema);
    // A branch compiled on its own lacks the types its parents state (a bare `required`).
    const branchAjv = new Ajv2020({
      allErrors: true,
      verbose: true,
      strict: true,
      strictRequired: false,
      strictTypes: false,
    }).addSchema(schema);
    const pointers = schemaPointers(schema);
    const id = typeof schema.$id === 'string' ? schema.$id : undefined;
    const branches = new Map<object, ValidateFunction | undefined>();
    const validateBranch = (branch: object, value: unknown): readonly ErrorObject[] => {
      if (!branches.has(branch)) {
        const pointer = pointers.get(branch);
        branches.set(
          branch,
          pointer === undefined || id === undefined
            ? undefined
            : branchAjv.getSchema(`${id}#${pointer}`),
        );
      }
      const branchValidate = branches.get(branch);
      if (branchValidate === undefined) return [];
      return branchValidate(value) ? [] : (branchValidate.errors ?? []);
    };
    return (value) =>
      validate(value)
        ? []
        : schemaProblems(validate.errors ?? [], value, {
            what,
            validateBranch,
            pointerOf: (object) => pointers.get(object),
            advice,
          });
  }
}
