import { HintgateError, type HintgateErrorCode } from '../errors/hintgate-error.js';
import { HINT_NAMES, type HintName } from '../tool/annotations.js';
import { ownValue } from '../tool/own-value.js';
import { checkGlob } from './compile-glob.js';
import {
  MODES,
  type Mode,
  type Policy,
  type PolicyRule,
  type RuleDecision,
} from './policy-types.js';

/** Path of a value inside a policy: keys of mappings and indexes of lists, e.g. `['rules', 2, 'decision']`. */
export type PolicyPath = (string | number)[];

/** A 1-based line and column in a policy file. */
export interface PolicyPosition {
  readonly line: number;
  readonly column: number;
}

/** Where a policy came from, so that each problem can say where to fix it. */
export interface PolicySource {
  /**
   * Name of the file, put at the start of every problem (`hintgate.yaml:12:5: ...`). Leave
   * it out for a policy given in code: problems then start with the path (`rules[2]...`).
   */
  readonly file?: string | undefined;
  /**
   * Finds the position of the value at `path` (of its key, for a value in a mapping).
   * Returning `undefined` makes the problem fall back to the nearest enclosing value that
   * has a position. Default: no positions.
   */
  readonly locate?: ((path: PolicyPath) => PolicyPosition | undefined) | undefined;
}

/** The decisions a rule may state, in order of increasing strictness. */
const DECISIONS: readonly RuleDecision[] = ['allow', 'ask', 'deny'];

/** Top-level keys of a policy. `$schema` is also accepted, for editors, and ignored. */
const POLICY_KEYS = ['mode', 'rules'] as const;

/** Keys of {@link PolicyRule}, in the order a normalized rule lists them. */
const RULE_KEYS = [
  'tool',
  'origin',
  'annotations',
  'key',
  'decision',
  'priority',
  'modes',
  'reason',
] as const;

type RuleKey = (typeof RULE_KEYS)[number];

/** Words people reach for that are not rule keys, and the key they mean. */
const RULE_KEY_SYNONYMS: Readonly<Record<string, RuleKey>> = {
  action: 'decision',
  effect: 'decision',
  verdict: 'decision',
  server: 'origin',
  name: 'tool',
  approvalKey: 'key',
  description: 'reason',
  comment: 'reason',
};

const GLOB_EXAMPLES: Readonly<Record<'tool' | 'origin' | 'key', string>> = {
  tool: 'github_*',
  origin: 'github',
  key: 'file:src/**',
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One mistake found in a policy or configuration file, before it is given a position. */
export interface Problem {
  readonly path: PolicyPath;
  /** The rest of the sentence after the path, with its final punctuation. */
  readonly text: string;
}

/**
 * Checks a policy given as plain data (parsed from a file, or written in code) and returns
 * it frozen and normalized: only the keys it states, rules' keys in a fixed order, duplicate
 * modes dropped, `$schema` dropped, and `rules: null` (a YAML `rules:` with every rule
 * commented out) read as no rules.
 *
 * @param value The policy: a mapping with optional `mode` and `rules`.
 * @param source The file it came from and how to find positions in it, for the messages.
 * @throws HintgateError `invalid_policy` listing every problem, one per line, each with the
 *   file, line and column when known, the path of the offending value and what to change:
 *   `hintgate.yaml:12:5: rules[2].decision is "block"; use one of allow, ask, deny.`
 */
export function checkPolicy(value: unknown, source?: PolicySource): Policy {
  const problems: Problem[] = [];
  const policy = readPolicy(value, problems);
  throwProblems(problems, { source });
  return policy;
}

/** Options of {@link throwProblems}. */
export interface ThrowProblemsOptions {
  /** The file the problems were found in, and how to find their positions. */
  readonly source?: PolicySource | undefined;
  /** The error's code. Default `invalid_policy`. */
  readonly code?: HintgateErrorCode;
  /** How a problem with an empty path names the whole file. Default "the policy". */
  readonly root?: string;
}

/**
 * Throws one {@link HintgateError} listing `problems`, one per line in file order, each
 * with its position and path (as {@link checkPolicy} reports them); returns when there are
 * none.
 */
export function throwProblems(
  problems: readonly Problem[],
  options: ThrowProblemsOptions = {},
): void {
  const { source, code = 'invalid_policy', root = 'the policy' } = options;
  if (problems.length === 0) return;
  const located = problems.map((problem) => ({
    problem,
    position: locate(problem.path, source?.locate),
  }));
  // In file order, so that fixing them top to bottom works; unplaced ones keep their order.
  located.sort((a, b) => compareLines(a.position, b.position));
  const lines = located.map(({ problem, position }) =>
    render(problem, position, source?.file, root),
  );
  throw new HintgateError(code, lines.join('\n'));
}

/** Reads `mode` and `rules` of a policy, adding what is wrong to `problems`. */
export function readPolicy(value: unknown, problems: Problem[]): Policy {
  const policy: Mutable<Policy> = {};
  if (!isPlainObject(value)) {
    problems.push({
      path: [],
      text: `is ${describe(value)}; write a mapping with "mode" and/or "rules".`,
    });
    return Object.freeze(policy);
  }
  for (const key of Object.keys(value)) {
    if (key === '$schema' || (POLICY_KEYS as readonly string[]).includes(key)) continue;
    problems.push({ path: [key], text: unknownPolicyKey(key) });
  }
  if (value.mode !== undefined) {
    const mode = readChoice(value.mode, ['mode'], MODES, problems);
    if (mode !== undefined) policy.mode = mode;
  }
  if (value.rules !== undefined) {
    const rules = readRules(value.rules, problems);
    if (rules !== undefined) policy.rules = rules;
  }
  return Object.freeze(policy);
}

function unknownPolicyKey(key: string): string {
  const guess = closest(key, POLICY_KEYS);
  if (guess !== undefined) return `is not a policy key; did you mean "${guess}"?`;
  if (
    (RULE_KEYS as readonly string[]).includes(key) ||
    (HINT_NAMES as readonly string[]).includes(key)
  ) {
    return `is not a policy key; "${key}" belongs in a rule, in the list under "rules".`;
  }
  return 'is not a policy key; use "mode" and "rules".';
}

function readRules(value: unknown, problems: Problem[]): readonly PolicyRule[] | undefined {
  if (value === null) return Object.freeze([]);
  if (!Array.isArray(value)) {
    const hint = isPlainObject(value) ? ' (in YAML, start each rule with "- ")' : '';
    problems.push({
      path: ['rules'],
      text: `is ${describe(value)}; use a list of rules, each a mapping with at least "decision"${hint}.`,
    });
    return undefined;
  }
  const rules: PolicyRule[] = [];
  value.forEach((item: unknown, index) => {
    const rule = readRule(item, ['rules', index], problems);
    if (rule !== undefined) rules.push(rule);
  });
  return Object.freeze(rules);
}

function readRule(value: unknown, path: PolicyPath, problems: Problem[]): PolicyRule | undefined {
  if (!isPlainObject(value)) {
    problems.push({
      path,
      text: `is ${describe(value)}; write each rule as a mapping with at least "decision".`,
    });
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!(RULE_KEYS as readonly string[]).includes(key)) {
      problems.push({ path: [...path, key], text: unknownRuleKey(key, value[key]) });
    }
  }
  const before = problems.length;
  const rule: Partial<Mutable<PolicyRule>> = {};
  for (const key of RULE_KEYS) {
    const field = value[key];
    if (field === undefined) continue;
    const at = [...path, key];
    switch (key) {
      case 'tool':
      case 'origin':
      case 'key': {
        const glob = readGlob(field, at, GLOB_EXAMPLES[key], problems);
        if (glob !== undefined) rule[key] = glob;
        break;
      }
      case 'annotations': {
        const hints = readHints(field, at, problems);
        if (hints !== undefined) rule.annotations = hints;
        break;
      }
      case 'decision': {
        const decision = readChoice(field, at, DECISIONS, problems);
        if (decision !== undefined) rule.decision = decision;
        break;
      }
      case 'priority':
        if (typeof field === 'number' && Number.isFinite(field)) rule.priority = field;
        else
          problems.push({
            path: at,
            text: `is ${describe(field)}; use a finite number such as 10.`,
          });
        break;
      case 'modes': {
        const modes = readModes(field, at, problems);
        if (modes !== undefined) rule.modes = modes;
        break;
      }
      case 'reason':
        if (typeof field === 'string') rule.reason = field;
        else problems.push({ path: at, text: `is ${describe(field)}; use a string.` });
        break;
    }
  }
  if (value.decision === undefined) {
    problems.push({ path, text: 'has no decision; add "decision" with allow, ask or deny.' });
  }
  if (problems.length > before || rule.decision === undefined) return undefined;
  return Object.freeze({ ...rule, decision: rule.decision });
}

function unknownRuleKey(key: string, value: unknown): string {
  if ((HINT_NAMES as readonly string[]).includes(key)) {
    const shown = typeof value === 'boolean' ? String(value) : 'true';
    return `is not a rule key; put hints under "annotations", as in annotations: { ${key}: ${shown} }.`;
  }
  // Own synonyms only: `constructor` or `__proto__` must not find Object.prototype's.
  const guess = ownValue(RULE_KEY_SYNONYMS, key) ?? closest(key, RULE_KEYS);
  return guess === undefined
    ? `is not a rule key; use ${listOf(RULE_KEYS, 'or')}.`
    : `is not a rule key; did you mean "${guess}"?`;
}

function readGlob(
  value: unknown,
  path: PolicyPath,
  example: string,
  problems: Problem[],
): string | undefined {
  if (typeof value === 'string') {
    const problem = checkGlob(value);
    if (problem === undefined) return value;
    problems.push({ path, text: `is ${describe(value)}: ${problem}.` });
    return undefined;
  }
  let hint = '';
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    hint = `; to match several, write one glob with braces: "{${value.join(',')}}" (quoted in YAML)`;
  } else if (isPlainObject(value) && Object.values(value).every((v) => v === null)) {
    // YAML reads an unquoted `{a,b}` as a mapping and `*x` as an alias.
    hint = `; in YAML, quote a glob that starts with "{", "[" or "*", as in "{${Object.keys(value).join(',')}}"`;
  }
  problems.push({
    path,
    text: `is ${describe(value)}; use a glob string such as "${example}"${hint}.`,
  });
  return undefined;
}

function readHints(
  value: unknown,
  path: PolicyPath,
  problems: Problem[],
): PolicyRule['annotations'] | undefined {
  if (!isPlainObject(value)) {
    problems.push({
      path,
      text: `is ${describe(value)}; use a mapping of hints such as { destructiveHint: true }.`,
    });
    return undefined;
  }
  const hints: Partial<Record<HintName, boolean>> = {};
  let ok = true;
  for (const key of Object.keys(value)) {
    if (!(HINT_NAMES as readonly string[]).includes(key)) {
      const guess = closest(key, HINT_NAMES);
      problems.push({
        path: [...path, key],
        text:
          guess === undefined
            ? `is not a hint; use ${listOf(HINT_NAMES, 'or')}.`
            : `is not a hint; did you mean "${guess}"?`,
      });
      ok = false;
    }
  }
  for (const name of HINT_NAMES) {
    const hint = value[name];
    if (hint === undefined) continue;
    if (typeof hint === 'boolean') {
      hints[name] = hint;
      continue;
    }
    const quoted = hint === 'true' || hint === 'false' ? ' without quotes' : '';
    problems.push({
      path: [...path, name],
      text: `is ${describe(hint)}; use true or false${quoted}.`,
    });
    ok = false;
  }
  return ok ? Object.freeze(hints) : undefined;
}

function readModes(
  value: unknown,
  path: PolicyPath,
  problems: Problem[],
): readonly Mode[] | undefined {
  if (!Array.isArray(value)) {
    const text =
      typeof value === 'string' && (MODES as readonly string[]).includes(value)
        ? `is ${describe(value)}; use a list, as in modes: [${value}].`
        : `is ${describe(value)}; use a list of one or more of ${MODES.join(', ')}.`;
    problems.push({ path, text });
    return undefined;
  }
  if (value.length === 0) {
    problems.push({
      path,
      text: `is an empty list; list one or more of ${MODES.join(', ')}, or leave "modes" out to apply the rule in every mode.`,
    });
    return undefined;
  }
  const modes: Mode[] = [];
  let ok = true;
  value.forEach((item: unknown, index) => {
    const mode = readChoice(item, [...path, index], MODES, problems);
    if (mode === undefined) ok = false;
    else if (!modes.includes(mode)) modes.push(mode);
  });
  return ok ? Object.freeze(modes) : undefined;
}

/** Reads one of `choices`, adding a problem (with a near-miss suggestion) for anything else. */
export function readChoice<T extends string>(
  value: unknown,
  path: PolicyPath,
  choices: readonly T[],
  problems: Problem[],
): T | undefined {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value))
    return value as T;
  const guess = typeof value === 'string' ? closest(value, choices) : undefined;
  const hint = guess === undefined ? '' : ` (did you mean "${guess}"?)`;
  problems.push({ path, text: `is ${describe(value)}; use one of ${choices.join(', ')}${hint}.` });
  return undefined;
}

function render(
  problem: Problem,
  position: PolicyPosition | undefined,
  file: string | undefined,
  root: string,
): string {
  const where = [file, position && `${position.line}:${position.column}`]
    .filter((part) => part !== undefined && part !== '')
    .join(':');
  return `${where === '' ? '' : `${where}: `}${formatPath(problem.path, root)} ${problem.text}`;
}

function compareLines(a: PolicyPosition | undefined, b: PolicyPosition | undefined): number {
  if (a === undefined || b === undefined)
    return (a === undefined ? 1 : 0) - (b === undefined ? 1 : 0);
  return a.line - b.line || a.column - b.column;
}

/** The position of `path`, or of the nearest enclosing value that has one. */
function locate(path: PolicyPath, finder: PolicySource['locate']): PolicyPosition | undefined {
  if (finder === undefined) return undefined;
  for (let length = path.length; length >= 0; length -= 1) {
    try {
      const position = finder(path.slice(0, length));
      if (position !== undefined) return position;
    } catch {
      // A locator that fails only costs the position; the problem is still reported.
    }
  }
  return undefined;
}

/** `rules[2].decision`; keys that are not identifiers as `["a b"]`; the root as `root`. */
function formatPath(path: readonly (string | number)[], root: string): string {
  if (path.length === 0) return root;
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** A short description of a value for a message: `"block"`, `42`, `a list`, `a mapping`. */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return 'undefined';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
      if (isPlainObject(value)) return 'a mapping';
      if (value instanceof Uint8Array) return 'binary data';
      if (value instanceof Date) return 'a date';
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `"a", "b" or "c"`: quoted words joined for a message. */
export function listOf(words: readonly string[], conjunction: 'and' | 'or'): string {
  const quoted = words.map((word) => `"${word}"`);
  return quoted.length < 2
    ? quoted.join('')
    : `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted.at(-1)}`;
}

/** The candidate `word` is a near miss of, if any: a small edit away, or a prefix of it. */
export function closest<T extends string>(word: string, candidates: readonly T[]): T | undefined {
  const lower = word.toLowerCase();
  let best: T | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const target = candidate.toLowerCase();
    const distance = levenshtein(lower, target);
    const near =
      distance <= Math.max(1, Math.floor(Math.max(lower.length, target.length) / 3)) ||
      (lower.length >= 3 && target.startsWith(lower));
    if (near && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8 || a.length > 64 || b.length > 64) {
    return Math.max(a.length, b.length);
  }
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
