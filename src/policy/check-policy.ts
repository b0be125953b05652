import {
  type ConfigPath,
  type ConfigProblem,
  type ConfigSource,
  describe,
  inValueOrder,
  mergeProblems,
  throwProblems,
} from '../config-problems/index.js';
import { HINT_NAMES, type HintName, isPlainObject } from '../tool/index.js';
import { checkGlob } from './compile-glob.js';
import { MODES, type Policy, type PolicyRule, type RuleDecision } from './policy-types.js';
import { readToolSettings } from './read-tool-settings.js';
import { validatePolicy } from './validate-policy.js';

/** Where a policy came from, so that each problem can say where to fix it. */
export type PolicySource = ConfigSource;

/** The decisions a rule may state, in order of increasing strictness. */
const DECISIONS: readonly RuleDecision[] = ['allow', 'ask', 'deny'];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Checks a policy given as plain data (parsed from a file, or written in code) and returns
 * it frozen and normalized: only the keys it states, rules' keys in a fixed order, duplicate
 * modes dropped, `$schema` dropped, and `rules: null` (a YAML `rules:` with every rule
 * commented out) read as no rules. Types, keys and choices are checked against
 * `schema/hintgate-policy.schema.json` (compiled ahead of time), then what a schema cannot
 * say: the syntax of globs, and `enabled` against `disabled` of a tool.
 *
 * @param value The policy: a mapping with optional `mode`, `rules` and `tools`.
 * @param source The file it came from and how to find positions in it, for the messages.
 * @throws HintgateError `invalid_policy` listing every problem, one per line in the order
 *   of the values, each with the file, line and column when known, the path of the
 *   offending value and what to change:
 *   `hintgate.yaml:12:5: rules[2].decision is "block"; use one of allow, ask, deny.`
 */
export function checkPolicy(value: unknown, source?: PolicySource): Policy {
  const schema = validatePolicy(value);
  const problems: ConfigProblem[] = [];
  const policy = readPolicy(value, problems, source);
  // The readers speak only of single values (a glob's syntax), so they cover no other.
  const merged = mergeProblems(schema, problems);
  throwProblems(inValueOrder(merged, value), { source });
  return policy;
}

/**
 * Reads `mode`, `rules` and `tools` of a policy checked against the schema (or whose schema
 * problems are reported with these), normalising them and adding to `problems` what a
 * schema cannot say. Values of the wrong type are left out, for the schema to report;
 * `source` locates the `tools` entries for later messages.
 */
export function readPolicy(
  value: unknown,
  problems: ConfigProblem[],
  source?: PolicySource,
): Policy {
  const policy: Mutable<Policy> = {};
  if (!isPlainObject(value)) return Object.freeze(policy);
  if (isOneOf(value.mode, MODES)) policy.mode = value.mode;
  if (value.rules === null) policy.rules = Object.freeze([]);
  else if (Array.isArray(value.rules)) {
    const rules: PolicyRule[] = [];
    value.rules.forEach((item: unknown, index) => {
      const rule = readRule(item, ['rules', index], problems);
      if (rule !== undefined) rules.push(rule);
    });
    policy.rules = Object.freeze(rules);
  }
  const tools = readToolSettings(value.tools, ['tools'], problems, source);
  if (tools !== undefined) policy.tools = tools;
  return Object.freeze(policy);
}

function readRule(
  value: unknown,
  path: ConfigPath,
  problems: ConfigProblem[],
): PolicyRule | undefined {
  if (!isPlainObject(value)) return undefined;
  const rule: Partial<Mutable<PolicyRule>> = {};
  let ok = true;
  for (const key of ['tool', 'origin', 'key'] as const) {
    const glob = value[key];
    if (typeof glob !== 'string') continue;
    const problem = checkGlob(glob);
    if (problem === undefined) rule[key] = glob;
    else {
      problems.push({ path: [...path, key], text: `is ${describe(glob)}: ${problem}.` });
      ok = false;
    }
  }
  if (!ok || !isOneOf(value.decision, DECISIONS)) return undefined;
  if (isPlainObject(value.annotations)) {
    const hints: Partial<Record<HintName, boolean>> = {};
    for (const name of HINT_NAMES) {
      const hint = value.annotations[name];
      if (typeof hint === 'boolean') hints[name] = hint;
    }
    rule.annotations = Object.freeze(hints);
  }
  if (typeof value.priority === 'number') rule.priority = value.priority;
  if (Array.isArray(value.modes)) {
    rule.modes = Object.freeze([...new Set(value.modes.filter((mode) => isOneOf(mode, MODES)))]);
  }
  if (typeof value.reason === 'string') rule.reason = value.reason;
  // Keys in a fixed order: tool, origin, annotations, key, decision, priority, modes, reason.
  const { tool, origin, annotations, key, priority, modes, reason } = rule;
  return Object.freeze({
    ...(tool === undefined ? {} : { tool }),
    ...(origin === undefined ? {} : { origin }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(key === undefined ? {} : { key }),
    decision: value.decision,
    ...(priority === undefined ? {} : { priority }),
    ...(modes === undefined ? {} : { modes }),
    ...(reason === undefined ? {} : { reason }),
  });
}

function isOneOf<T extends string>(value: unknown, choices: readonly T[]): value is T {
  return typeof value === 'string' && (choices as readonly string[]).includes(value);
}
