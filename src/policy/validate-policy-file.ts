import { shippedSchemaCheck } from '../fs/index.js';

/**
 * Checks a parsed policy file against the shipped `schema/hintgate-policy.schema.json`
 * (Ajv, draft 2020-12, every error) and returns what is wrong, unlocated. The schema sits
 * beside `src/` and `dist/` alike.
 */
export const validatePolicyFile = shippedSchemaCheck(
  new URL('../../schema/hintgate-policy.schema.json', import.meta.url),
  (path) => (path.length === 0 ? 'a policy key' : 'an allowed key here'),
);
