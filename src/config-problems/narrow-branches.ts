import type { ErrorObject } from 'ajv/dist/2020.js';
import { closest } from './closest.js';

/**
 * Validates a value against one branch of a `oneOf`/`anyOf` (an object of the schema, as
 * Ajv hands it in `error.schema`) and returns its errors, with instance paths relative to
 * the value; none when it matches.
 */
export type ValidateBranch = (branch: object, value: unknown) => readonly ErrorObject[];

/** Parameters of a failed `oneOf`/`anyOf` that no branch fits, as {@link narrowBranches} leaves it. */
export interface NoBranchParams {
  /** The keys the branches require and the value lacks, one per branch, in branch order. */
  readonly missing: readonly string[];
}

const COMBINATORS = new Set(['oneOf', 'anyOf']);

/**
 * Replaces the errors of every branch of a failed `oneOf`/`anyOf` with those of the one
 * branch the value was meant for, so that a wrong key of a stdio server is not also
 * reported as a missing `url`. Ajv (with `allErrors`) appends the errors of each branch in
 * turn, then the `oneOf` error; revalidating each branch tells how many there were and
 * which branch fits best:
 *
 * 1. one the value's type suits (a mapping is not meant for a string branch);
 * 2. one whose constant keys the value does not contradict (`type: http` is not stdio);
 * 3. one whose required keys are there, or misspelled as a key that is there;
 * 4. the fewest errors, then the deepest (the branch that matched most of the value).
 *
 * When no branch has its required keys (a server with neither `command` nor `url`), or
 * the value is of a kind no branch takes, the `oneOf` error is kept alone, with
 * {@link NoBranchParams} listing what each branch lacks (nothing for the wrong kind).
 * A `oneOf` that more than one branch matches is kept as it is.
 */
export function narrowBranches(
  errors: readonly ErrorObject[],
  data: unknown,
  validateBranch: ValidateBranch,
): ErrorObject[] {
  const out: ErrorObject[] = [];
  let index = errors.length - 1;
  while (index >= 0) {
    const error = errors[index] as ErrorObject;
    const branches = error.schema;
    if (!COMBINATORS.has(error.keyword) || !Array.isArray(branches)) {
      out.push(error);
      index -= 1;
      continue;
    }
    const value = valueAt(data, error.instancePath);
    const results = branches.map((branch: unknown) =>
      typeof branch === 'object' && branch !== null ? validateBranch(branch, value) : [],
    );
    const count = results.reduce((sum, result) => sum + result.length, 0);
    const start = index - count;
    const run = errors.slice(Math.max(0, start), index);
    if (start < 0 || !run.every((inner) => within(error.instancePath, inner.instancePath))) {
      // Not the layout Ajv is known to produce: keep what it said rather than guess.
      out.push(error);
      index -= 1;
      continue;
    }
    index = start - 1;
    const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
    if (Array.isArray(passing)) {
      out.push(error);
      continue;
    }
    const chosen = choose(results, value);
    if (typeof chosen !== 'number') {
      out.push({ ...error, params: { ...error.params, missing: chosen } });
      continue;
    }
    const prefixed = (results[chosen] ?? []).map((inner) => ({
      ...inner,
      instancePath: `${error.instancePath}${inner.instancePath}`,
    }));
    out.push(...narrowBranches(prefixed, data, validateBranch).reverse());
  }
  return out.reverse();
}

/** The index of the branch meant, or the keys each branch lacks when none fits. */
function choose(results: readonly (readonly ErrorObject[])[], value: unknown): number | string[] {
  const scores = results.map((result) => score(result, value));
  let best = 0;
  scores.forEach((candidate, index) => {
    if (compare(candidate, scores[best] as number[]) < 0) best = index;
  });
  const [wrongType, contradicted, lacking] = scores[best] as number[];
  // A value of a kind no branch takes (a number where a mapping or a URL goes).
  if (wrongType === 1) return [];
  const candidates = scores.filter(([type, constant]) => type === 0 && constant === 0);
  if (wrongType === 0 && contradicted === 0 && lacking === 1 && candidates.length > 1) {
    return results.flatMap((result) =>
      result
        .filter((error) => error.keyword === 'required' && error.instancePath === '')
        .map((error) => String((error.params as { missingProperty: string }).missingProperty)),
    );
  }
  return best;
}

/** Lower is better: [wrong type, contradicted constant, required key lacking, errors, -depth]. */
function score(errors: readonly ErrorObject[], value: unknown): number[] {
  const keys =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  const wrongType = errors.some(
    (error) => error.instancePath === '' && ['type', 'const', 'enum'].includes(error.keyword),
  );
  const contradicted = errors.some(
    (error) =>
      (error.keyword === 'const' || error.keyword === 'enum') &&
      error.instancePath.split('/').length === 2,
  );
  const lacking = errors.some((error) => {
    if (error.keyword !== 'required' || error.instancePath !== '') return false;
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return !keys.some((key) => closest(key, [missing]) !== undefined);
  });
  const depth = Math.max(0, ...errors.map((error) => error.instancePath.split('/').length));
  return [Number(wrongType), Number(contradicted), Number(lacking), errors.length, -depth];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i += 1) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

const within = (outer: string, inner: string): boolean =>
  inner === outer || inner.startsWith(`${outer}/`);

/** The value at a JSON pointer. */
function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node =
      typeof node === 'object' && node !== null
        ? (node as Record<string, unknown>)[segment]
        : undefined;
  }
  return node;
}
