export { closest } from './closest.js';
export type { ConfigPath, ConfigPosition, ConfigProblem, ConfigSource } from './config-problem.js';
export { describe } from './describe.js';
export { findJsonError, type JsonError } from './find-json-error.js';
export { inValueOrder } from './in-value-order.js';
export { listOf } from './list-of.js';
export { mergeProblems } from './merge-problems.js';
export { type NoBranchParams, narrowBranches, type ValidateBranch } from './narrow-branches.js';
export { type ParsedYamlOrJson, parseYamlOrJson } from './parse-yaml-or-json.js';
export type { SchemaAdvice, SchemaAdviceEntry } from './schema-advice.js';
export { schemaPointers } from './schema-pointers.js';
export { type SchemaProblemsOptions, schemaProblems } from './schema-problems.js';
export {
  type StandaloneSchema,
  type StandaloneValidate,
  standaloneSchemaCheck,
} from './standalone-schema-check.js';
export { type ThrowProblemsOptions, throwProblems } from './throw-problems.js';
