import type { ConfigPath, ConfigProblem } from './config-problem.js';

/** Whether `path` is `outer` or inside it. */
const within = (outer: ConfigPath, path: ConfigPath): boolean =>
  outer.length <= path.length && outer.every((part, index) => part === path[index]);

/**
 * Joins what a schema found with what the hand-written checks found: every schema problem,
 * except one about a value a hand-written check reported on (the value itself or one inside
 * it: its words carry advice a schema cannot give, such as where a misplaced key belongs),
 * plus every hand-written problem. The schema's problems about the mapping around a checked
 * value and about its other keys are all kept: with `oneOf` branches narrowed to the one a
 * value was meant for, each of them is a problem of its own.
 *
 * @param schema The problems of the schema, checked first.
 * @param checks The problems of the checks of what a schema cannot say, or words better.
 */
export function mergeProblems(
  schema: readonly ConfigProblem[],
  checks: readonly ConfigProblem[],
): ConfigProblem[] {
  const kept = schema.filter(
    (problem) => !checks.some((check) => within(check.path, problem.path)),
  );
  return [...kept, ...checks];
}
