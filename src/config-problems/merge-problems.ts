import type { ConfigPath, ConfigProblem } from './config-problem.js';

const within = (outer: ConfigPath, path: ConfigPath): boolean =>
  outer.length <= path.length && outer.every((part, index) => part === path[index]);

/**
 * A check's problem covers a schema problem about the same mapping: the value itself, one
 * inside it, or another key of the mapping around it (a schema that tries the branches of a
 * `oneOf` reports keys of every branch once one key is wrong).
 */
const covers = (check: ConfigPath, schema: ConfigPath): boolean =>
  within(check, schema) || (schema.length > 1 && within(schema.slice(0, -1), check));

/** Options of {@link mergeProblems}. */
export interface MergeProblemsOptions {
  /**
   * Whether a check's problem also covers the schema's about the mapping around it and its
   * other keys, for schemas whose `oneOf` branches are not narrowed. `false`: only the value
   * itself and those inside it. Default true.
   */
  readonly around?: boolean;
}

/**
 * Joins what a schema found with what the hand-written checks found: every schema problem,
 * except where a hand-written check reported on the same mapping (its words carry advice a
 * schema cannot give, such as where a misplaced key belongs), plus every hand-written
 * problem.
 *
 * @param schema The problems of the schema, checked first.
 * @param checks The problems of the checks of what a schema cannot say, or words better.
 * @param options Which schema problems a check's problem covers.
 */
export function mergeProblems(
  schema: readonly ConfigProblem[],
  checks: readonly ConfigProblem[],
  options: MergeProblemsOptions = {},
): ConfigProblem[] {
  const cover = options.around === false ? within : covers;
  const kept = schema.filter((problem) => !checks.some((check) => cover(check.path, problem.path)));
  return [...kept, ...checks];
}
