import { type StandaloneSchema, standaloneSchemaCheck } from '../config-problems/index.js';
import { POLICY_ADVICE } from './policy-advice.js';
import * as generated from './policy-schema.generated.js';

/**
 * Checks a policy (parsed from a file, or written in code) against
 * `schema/hintgate-policy.schema.json` and returns what is wrong, unlocated, in the words of
 * {@link POLICY_ADVICE}. The schema is compiled ahead of time (`npm run gen:schemas`), so
 * the check reads no file and compiles no code.
 */
export const validatePolicy = standaloneSchemaCheck(
  generated as unknown as StandaloneSchema,
  (path) => (path.length === 0 ? 'a policy key' : 'an allowed key here'),
  POLICY_ADVICE,
);
