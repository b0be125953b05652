import { closest, describe, type SchemaAdvice } from '../config-problems/index.js';
import { HINT_NAMES, isPlainObject, MAX_TIMER_MS } from '../tool/index.js';
import { MODES } from './policy-types.js';

/** Keys of a rule, in the order the schema lists them. */
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

const GLOB_EXAMPLES = { tool: 'github_*', origin: 'github', key: 'file:src/**' } as const;

const inRule = (key: string): string =>
  `is not a policy key; "${key}" belongs in a rule, in the list under "rules".`;

/** A glob written as another kind of value: a list of names, or YAML reading `{a,b}` as a mapping. */
const globText =
  (example: string) =>
  (value: unknown): string => {
    let hint = '';
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
      hint = `; to match several, write one glob with braces: "{${value.join(',')}}" (quoted in YAML)`;
    } else if (isPlainObject(value) && Object.values(value).every((v) => v === null)) {
      // YAML reads an unquoted `{a,b}` as a mapping and `*x` as an alias.
      hint = `; in YAML, quote a glob that starts with "{", "[" or "*", as in "{${Object.keys(value).join(',')}}"`;
    }
    return `is ${describe(value)}; use a glob string such as "${example}"${hint}.`;
  };

const hintInAnnotations =
  (what: string) =>
  (hint: string) =>
  (value: unknown): string =>
    `is not ${what}; put hints under "annotations", as in annotations: { ${hint}: ${typeof value === 'boolean' ? value : true} }.`;

/**
 * Words for the problems `mode`, `rules` and `tools` can have, beyond what the schema says
 * (the same pointers in schema/hintgate-policy.schema.json and schema/hintgate.schema.json):
 * what each mapping's keys are called, the keys people write instead, advice for known
 * mistakes.
 */
export const POLICY_KEY_ADVICE: SchemaAdvice = {
  '/properties/rules': {
    text: {
      type: (value) =>
        `is ${describe(value)}; use a list of rules, each a mapping with at least "decision"${
          isPlainObject(value) ? ' (in YAML, start each rule with "- ")' : ''
        }.`,
    },
  },
  '/$defs/rule': {
    what: 'a rule key',
    synonyms: {
      action: 'decision',
      effect: 'decision',
      verdict: 'decision',
      server: 'origin',
      name: 'tool',
      approvalKey: 'key',
      description: 'reason',
      comment: 'reason',
    },
    keys: Object.fromEntries(
      HINT_NAMES.map((hint) => [hint, hintInAnnotations('a rule key')(hint)]),
    ),
    text: {
      type: (value) =>
        `is ${describe(value)}; write each rule as a mapping with at least "decision".`,
      required: 'has no decision; add "decision" with allow, ask or deny.',
    },
  },
  '/$defs/rule/properties/tool': { text: { type: globText(GLOB_EXAMPLES.tool) } },
  '/$defs/rule/properties/origin': { text: { type: globText(GLOB_EXAMPLES.origin) } },
  '/$defs/rule/properties/key': { text: { type: globText(GLOB_EXAMPLES.key) } },
  '/$defs/rule/properties/annotations': {
    what: 'a hint',
    rule: 'a mapping of hints such as { destructiveHint: true }',
  },
  '/$defs/rule/properties/priority': { rule: 'a finite number such as 10' },
  '/$defs/rule/properties/modes': {
    text: {
      type: (value) =>
        typeof value === 'string' && (MODES as readonly string[]).includes(value)
          ? `is ${describe(value)}; use a list, as in modes: [${value}].`
          : `is ${describe(value)}; use a list of one or more of ${MODES.join(', ')}.`,
      minItems: `is an empty list; list one or more of ${MODES.join(', ')}, or leave "modes" out to apply the rule in every mode.`,
    },
  },
  '/properties/tools': {
    rule: 'a mapping of tool names, such as { run_command: { timeoutMs: 120000 } }',
    text: {
      propertyNames:
        'is not a tool name; use the name the tool is listed under (1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".").',
    },
  },
  '/properties/tools/additionalProperties': {
    what: 'a key of a tool',
    synonyms: { timeout: 'timeoutMs', hints: 'annotations' },
    keys: {
      rateLimit:
        'is not a key of a tool here: a local tool states its rateLimit in defineTool, an upstream tool gets one under servers.<server>.tools.<name>.',
      resources:
        'is not a key of a tool here: a local tool states its resources in defineTool, an upstream tool gets them under servers.<server>.tools.<name>.',
      ...Object.fromEntries(
        HINT_NAMES.map((hint) => [hint, hintInAnnotations('a key of a tool')(hint)]),
      ),
    },
    rule: 'a mapping such as { enabled: false } or { timeoutMs: 30000 }',
  },
  '/properties/tools/additionalProperties/properties/timeoutMs': {
    rule: `milliseconds, a number in (0, ${MAX_TIMER_MS}], such as 30000`,
  },
  '/properties/tools/additionalProperties/properties/scopes': {
    rule: 'a list of scope names, such as [records.read]',
  },
  '/properties/tools/additionalProperties/properties/scopes/items': {
    rule: 'a non-empty scope name, such as "records.read"',
  },
  '/$defs/toolOverride/properties/annotations': {
    what: 'an MCP annotation',
    rule: 'a mapping, as in { readOnlyHint: true }',
  },
};

/** {@link POLICY_KEY_ADVICE} and the words for the top of a policy file. */
export const POLICY_ADVICE: SchemaAdvice = {
  ...POLICY_KEY_ADVICE,
  '': {
    what: 'a policy key',
    // A key of a rule written at the top, unless it looks like a policy key.
    keys: Object.fromEntries(
      [...RULE_KEYS, ...HINT_NAMES]
        .filter((key) => closest(key, ['mode', 'rules', 'tools']) === undefined)
        .map((key) => [key, inRule(key)]),
    ),
    text: {
      type: (value) => `is ${describe(value)}; write a mapping with "mode" and/or "rules".`,
      additionalProperties: 'is not a policy key; use "mode", "rules" and "tools".',
    },
  },
};
