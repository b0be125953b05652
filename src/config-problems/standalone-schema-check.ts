import type { ErrorObject } from 'ajv/dist/2020.js';
import type { ConfigPath, ConfigProblem } from './config-problem.js';
import type { SchemaAdvice } from './schema-advice.js';
import { schemaPointers } from './schema-pointers.js';
import { schemaProblems } from './schema-problems.js';

/** A validator of Ajv's standalone code: true when the value fits, else `errors` says why. */
export type StandaloneValidate = ((value: unknown) => boolean) & {
  readonly errors?: readonly ErrorObject[] | null;
};

/**
 * A validator module generated from a JSON Schema by `npm run gen:schemas`
 * (scripts/gen-schemas.ts): Ajv's standalone code, every error, verbose.
 */
export interface StandaloneSchema {
  /** The schema's validator. */
  readonly validate: StandaloneValidate;
  /** A validator for each branch of each `oneOf`/`anyOf`, by its JSON pointer. */
  readonly branches: Readonly<Record<string, StandaloneValidate>>;
  /** Each object of the schema the code embeds, with its JSON pointer. */
  readonly schemaRoots: readonly (readonly [object, string])[];
}

/**
 * A check of parsed configuration against a schema compiled ahead of time (see
 * {@link StandaloneSchema}), returning what is wrong, unlocated: no file is read and no code
 * is compiled at run time, so it runs on every platform. Of a failed `oneOf`/`anyOf`, only
 * the branch the value was meant for is reported.
 *
 * @param schema The generated module.
 * @param what Ends "is not ..." for a key not allowed at `path`, unless `advice` names it.
 * @param advice Words for problems at objects of the schema, by JSON pointer: what their
 *   keys are called, synonyms, advice for known mistakes. Default none.
 */
export function standaloneSchemaCheck(
  schema: StandaloneSchema,
  what: (path: ConfigPath) => string,
  advice: SchemaAdvice = {},
): (value: unknown) => ConfigProblem[] {
  let pointers: Map<object, string> | undefined;
  const pointerOf = (object: object): string | undefined => {
    if (pointers === undefined) {
      pointers = new Map();
      for (const [root, pointer] of schema.schemaRoots) {
        for (const [node, at] of schemaPointers(root, pointer)) {
          if (!pointers.has(node)) pointers.set(node, at);
        }
      }
    }
    return pointers.get(object);
  };
  const validateBranch = (branch: object, value: unknown): readonly ErrorObject[] => {
    const pointer = pointerOf(branch);
    const validate =
      pointer !== undefined && Object.hasOwn(schema.branches, pointer)
        ? schema.branches[pointer]
        : undefined;
    if (validate === undefined) return [];
    return validate(value) ? [] : (validate.errors ?? []);
  };
  return (value) =>
    schema.validate(value)
      ? []
      : schemaProblems(schema.validate.errors ?? [], value, {
          what,
          validateBranch,
          pointerOf,
          advice,
        });
}
