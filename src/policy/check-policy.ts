import {
  type ConfigPath,
  type ConfigProblem,
  type ConfigSource,
  closest,
  describe,
  listOf,
  throwProblems,
} from '../config-problems/index.js';
import { HINT_NAMES, type HintName, isPlainObject, ownValue } from '../tool/index.js';
import { checkGlob } from './compile-glob.js';
import {
  MODES,
  type Mode,
  type Policy,
  type PolicyRule,
  type RuleDecision,
} from './policy-types.js';
import { readToolSettings } from './read-tool-settings.js';

/** Where a policy came from, so that each problem can say where to fix it. */
export type PolicySource = ConfigSource;

type PolicyPath = ConfigPath;
type Problem = ConfigProblem;

/** The decisions a rule may state, in order of increasing strictness. */
const DECISIONS: readonly RuleDecision[] = ['allow', 'ask', 'deny'];

/** Top-level keys of a policy. `$schema` is also accepted, for editors, and ignored. */
const POLICY_KEYS = ['mode', 'rules', 'tools'] as const;

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
  const policy = readPolicy(value, problems, source);
  throwProblems(problems, { source });
  return policy;
}

/**
 * Reads `mode`, `rules` and `tools` of a policy, adding what is wrong to `problems`;
 * `source` locates the `tools` entries for later messages.
 */
export function readPolicy(value: unknown, problems: Problem[], source?: PolicySource): Policy {
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
  const tools = readToolSettings(value.tools, ['tools'], problems, source);
  if (tools !== undefined) policy.tools = tools;
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
