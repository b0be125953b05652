import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { HINT_NAMES } from '../tool/annotations.js';
import { checkPolicy, type PolicySource } from './check-policy.js';
import { MODES, type Policy } from './policy-types.js';

/** The lines of the `invalid_policy` error checkPolicy throws for `value`. */
function problems(value: unknown, source?: PolicySource): string[] {
  try {
    checkPolicy(value, source);
  } catch (error) {
    expect(error).toBeInstanceOf(HintgateError);
    expect((error as HintgateError).code).toBe('invalid_policy');
    return (error as Error).message.split('\n');
  }
  throw new Error('checkPolicy accepted the policy');
}

const rule = (fields: Record<string, unknown>) => ({ rules: [{ decision: 'deny', ...fields }] });

describe('checkPolicy', () => {
  it('returns a full policy equal to its input', () => {
    const policy = {
      mode: 'auto',
      rules: [
        {
          tool: 'github_*',
          origin: 'github',
          annotations: { destructiveHint: true, openWorldHint: false },
          key: 'file:src/**',
          decision: 'ask',
          priority: 10,
          modes: ['auto', 'yolo'],
          reason: 'review GitHub writes',
        },
        { decision: 'allow' },
      ],
    };
    expect(checkPolicy(policy)).toEqual(policy);
  });

  it('accepts an empty policy', () => {
    expect(checkPolicy({})).toEqual({});
  });

  it('freezes the policy, its rules and their annotations and modes', () => {
    const policy = checkPolicy({
      mode: 'ask',
      rules: [{ decision: 'deny', annotations: { readOnlyHint: false }, modes: ['ask'] }],
    });
    const first = policy.rules?.[0];
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.rules)).toBe(true);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.annotations)).toBe(true);
    expect(Object.isFrozen(first?.modes)).toBe(true);
  });

  it('copies the input, so that changing it later changes nothing', () => {
    const first = { tool: 'a', decision: 'deny', modes: ['ask'] };
    const policy = checkPolicy({ rules: [first] });
    first.tool = 'b';
    first.modes.push('yolo');
    expect(policy.rules?.[0]).toEqual({ tool: 'a', decision: 'deny', modes: ['ask'] });
  });

  it('drops $schema and undefined fields, dedupes modes and reads rules: null as no rules', () => {
    const policy = checkPolicy({
      $schema: 'https://example.com/hintgate.schema.json',
      mode: undefined,
      rules: [{ decision: 'allow', reason: undefined, modes: ['ask', 'auto', 'ask'] }],
    });
    expect(policy).toEqual({ rules: [{ decision: 'allow', modes: ['ask', 'auto'] }] });
    expect(Object.keys(policy)).toEqual(['rules']);
    expect(Object.keys(policy.rules?.[0] ?? {})).toEqual(['decision', 'modes']);
    expect(checkPolicy({ rules: null })).toEqual({ rules: [] });
  });

  it('lists the keys of a rule in a fixed order', () => {
    const policy = checkPolicy({ rules: [{ reason: 'r', decision: 'deny', tool: 't' }] });
    expect(Object.keys(policy.rules?.[0] ?? {})).toEqual(['tool', 'decision', 'reason']);
  });

  it.each([
    [[], 'the policy is an empty list; write a mapping with "mode" and/or "rules".'],
    ['mode: ask', 'the policy is "mode: ask"; write a mapping with "mode" and/or "rules".'],
    [null, 'the policy is null; write a mapping with "mode" and/or "rules".'],
    [{ mode: 'fast' }, 'mode is "fast"; use one of plan, ask, auto, allowlist, yolo.'],
    [{ mode: 1 }, 'mode is 1; use one of plan, ask, auto, allowlist, yolo.'],
    [{ rule: [] }, 'rule is not a policy key; did you mean "rules"?'],
    [{ modes: 'ask' }, 'modes is not a policy key; did you mean "mode"?'],
    [{ extra: 1 }, 'extra is not a policy key; use "mode", "rules" and "tools".'],
    [
      { decision: 'deny' },
      'decision is not a policy key; "decision" belongs in a rule, in the list under "rules".',
    ],
    [{ 'my key': 1 }, '["my key"] is not a policy key; use "mode", "rules" and "tools".'],
    [
      { rules: 'deny' },
      'rules is "deny"; use a list of rules, each a mapping with at least "decision".',
    ],
    [
      { rules: { decision: 'deny' } },
      'rules is a mapping; use a list of rules, each a mapping with at least "decision" (in YAML, start each rule with "- ").',
    ],
    [
      { rules: ['deny'] },
      'rules[0] is "deny"; write each rule as a mapping with at least "decision".',
    ],
    [{ rules: [{}] }, 'rules[0] has no decision; add "decision" with allow, ask or deny.'],
    [rule({ decision: 'block' }), 'rules[0].decision is "block"; use one of allow, ask, deny.'],
    [
      rule({ decision: 'Deny' }),
      'rules[0].decision is "Deny"; use one of allow, ask, deny (did you mean "deny"?).',
    ],
    [rule({ decision: true }), 'rules[0].decision is true; use one of allow, ask, deny.'],
    [rule({ tool: 7 }), 'rules[0].tool is 7; use a glob string such as "github_*".'],
    [
      rule({ origin: '' }),
      'rules[0].origin is "": a glob must not be empty; use "*" to match anything.',
    ],
    [
      rule({ key: 'file:[src' }),
      'rules[0].key is "file:[src": the "[" at character 6 is never closed; close it with "]" or escape it as "\\[".',
    ],
    [
      rule({ tool: ['a', 'b'] }),
      'rules[0].tool is a list; use a glob string such as "github_*"; to match several, write one glob with braces: "{a,b}" (quoted in YAML).',
    ],
    [
      rule({ tool: { a: null, b: null } }),
      'rules[0].tool is a mapping; use a glob string such as "github_*"; in YAML, quote a glob that starts with "{", "[" or "*", as in "{a,b}".',
    ],
    [
      rule({ annotations: true }),
      'rules[0].annotations is true; use a mapping of hints such as { destructiveHint: true }.',
    ],
    [
      rule({ annotations: { readonlyHint: true } }),
      'rules[0].annotations.readonlyHint is not a hint; did you mean "readOnlyHint"?',
    ],
    [
      rule({ annotations: { title: 'x' } }),
      'rules[0].annotations.title is not a hint; use "readOnlyHint", "destructiveHint", "idempotentHint" or "openWorldHint".',
    ],
    [
      rule({ annotations: { readOnlyHint: 'true' } }),
      'rules[0].annotations.readOnlyHint is "true"; use true or false without quotes.',
    ],
    [
      rule({ annotations: { openWorldHint: 1 } }),
      'rules[0].annotations.openWorldHint is 1; use true or false.',
    ],
    [
      rule({ priority: '10' }),
      'rules[0].priority is "10"; use a finite number such as 10 without quotes.',
    ],
    [
      rule({ priority: Number.POSITIVE_INFINITY }),
      'rules[0].priority is Infinity; use a finite number such as 10.',
    ],
    [rule({ priority: Number.NaN }), 'rules[0].priority is NaN; use a finite number such as 10.'],
    [rule({ modes: 'ask' }), 'rules[0].modes is "ask"; use a list, as in modes: [ask].'],
    [
      rule({ modes: 'fast' }),
      'rules[0].modes is "fast"; use a list of one or more of plan, ask, auto, allowlist, yolo.',
    ],
    [
      rule({ modes: [] }),
      'rules[0].modes is an empty list; list one or more of plan, ask, auto, allowlist, yolo, or leave "modes" out to apply the rule in every mode.',
    ],
    [
      rule({ modes: ['ask', 'yollo'] }),
      'rules[0].modes[1] is "yollo"; use one of plan, ask, auto, allowlist, yolo (did you mean "yolo"?).',
    ],
    [rule({ reason: 5 }), 'rules[0].reason is 5; use a string (quoted: "5").'],
    [rule({ tools: 'x' }), 'rules[0].tools is not a rule key; did you mean "tool"?'],
    [rule({ decison: 'deny' }), 'rules[0].decison is not a rule key; did you mean "decision"?'],
    [rule({ mode: ['ask'] }), 'rules[0].mode is not a rule key; did you mean "modes"?'],
    [rule({ action: 'deny' }), 'rules[0].action is not a rule key; did you mean "decision"?'],
    [
      rule({ destructiveHint: false }),
      'rules[0].destructiveHint is not a rule key; put hints under "annotations", as in annotations: { destructiveHint: false }.',
    ],
    [
      rule({ when: 'always' }),
      'rules[0].when is not a rule key; use "tool", "origin", "annotations", "key", "decision", "priority", "modes" or "reason".',
    ],
  ])('rejects %j', (value, message) => {
    expect(problems(value)).toEqual([message]);
  });

  it.each([
    [
      { tools: { run: { timeout: 5 } } },
      'tools.run.timeout is not a key of a tool; did you mean "timeoutMs"?',
    ],
    [
      { tools: { run: { readOnlyHint: false } } },
      'tools.run.readOnlyHint is not a key of a tool; put hints under "annotations", as in annotations: { readOnlyHint: false }.',
    ],
    [
      { tools: { 'run command': {} } },
      'tools["run command"] is not a tool name; use the name the tool is listed under (1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".").',
    ],
    [
      { tools: { run: { timeoutMs: 0 } } },
      'tools.run.timeoutMs is 0; use milliseconds, a number in (0, 2147483647], such as 30000.',
    ],
    [
      { tools: { run: { enabled: true, disabled: true } } },
      'tools.run.enabled is true while disabled is true; keep one of them.',
    ],
    [
      { tools: ['run'] },
      'tools is a list; use a mapping of tool names, such as { run_command: { timeoutMs: 120000 } }.',
    ],
  ])('rejects the tools of %j in the words of the policy advice', (value, message) => {
    expect(problems(value)).toEqual([message]);
  });

  it("reports a glob's syntax without hiding what the schema finds in the same or other rules", () => {
    expect(problems({ rules: [{ tool: '[', decision: 'deny', priority: 'x' }, 'deny'] })).toEqual([
      'rules[0].tool is "[": the "[" at character 1 is never closed; close it with "]" or escape it as "\\[".',
      'rules[0].priority is "x"; use a finite number such as 10.',
      'rules[1] is "deny"; write each rule as a mapping with at least "decision".',
    ]);
  });

  it('describes values that are not JSON without throwing anything else', () => {
    expect(problems({ mode: Symbol('m'), rules: [{ decision: 10n, tool: () => 'x' }] })).toEqual([
      'mode is a symbol; use one of plan, ask, auto, allowlist, yolo.',
      'rules[0].decision is 10n; use one of allow, ask, deny.',
      'rules[0].tool is a function; use a glob string such as "github_*".',
    ]);
    expect(problems({ rules: [{ decision: 'deny', reason: new Uint8Array(2) }] })).toEqual([
      'rules[0].reason is binary data; use a string.',
    ]);
  });

  it('reports every problem, one per line', () => {
    expect(
      problems({
        mode: 'fast',
        rulez: [],
        rules: [{ decision: 'block' }, { decision: 'allow' }, { tool: '[', priority: 'x' }],
      }),
    ).toEqual([
      'mode is "fast"; use one of plan, ask, auto, allowlist, yolo.',
      'rulez is not a policy key; did you mean "rules"?',
      'rules[0].decision is "block"; use one of allow, ask, deny.',
      'rules[2].tool is "[": the "[" at character 1 is never closed; close it with "]" or escape it as "\\[".',
      'rules[2].priority is "x"; use a finite number such as 10.',
      'rules[2] has no decision; add "decision" with allow, ask or deny.',
    ]);
  });

  it('starts each problem with the file, line and column, in file order', () => {
    const positions = new Map([
      ['', { line: 1, column: 1 }],
      ['rules', { line: 2, column: 1 }],
      ['rules.0', { line: 3, column: 5 }],
      ['rules.0.decision', { line: 4, column: 5 }],
      ['mode', { line: 9, column: 1 }],
    ]);
    const source: PolicySource = {
      file: 'hintgate.yaml',
      locate: (path) => positions.get(path.join('.')),
    };
    expect(problems({ mode: 'x', rules: [{ decision: 'block', tools: 'x' }] }, source)).toEqual([
      // `tools` has no position of its own, so it gets its rule's.
      'hintgate.yaml:3:5: rules[0].tools is not a rule key; did you mean "tool"?',
      'hintgate.yaml:4:5: rules[0].decision is "block"; use one of allow, ask, deny.',
      'hintgate.yaml:9:1: mode is "x"; use one of plan, ask, auto, allowlist, yolo.',
    ]);
  });

  it('names the file alone when it has no positions, and survives a failing locate', () => {
    expect(problems({ mode: 'x' }, { file: 'policy.json' })).toEqual([
      'policy.json: mode is "x"; use one of plan, ask, auto, allowlist, yolo.',
    ]);
    const locate = () => {
      throw new Error('broken');
    };
    expect(problems({ mode: 'x' }, { file: 'p.yaml', locate })).toEqual([
      'p.yaml: mode is "x"; use one of plan, ask, auto, allowlist, yolo.',
    ]);
  });

  it('never throws anything but invalid_policy, for any JSON value', () => {
    const ruleKey = fc.constantFrom(
      'tool',
      'origin',
      'annotations',
      'key',
      'decision',
      'priority',
      'modes',
      'reason',
      'tools',
    );
    const nearlyPolicy = fc.record({
      mode: fc.oneof(fc.constantFrom(...MODES), fc.jsonValue()),
      rules: fc.array(
        fc.oneof(
          fc.dictionary(ruleKey, fc.jsonValue()),
          fc.dictionary(ruleKey, fc.oneof(fc.string(), fc.constantFrom('deny', 'ask'))),
          fc.jsonValue(),
        ),
      ),
    });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), nearlyPolicy), (value) => {
        try {
          checkPolicy(value);
        } catch (error) {
          expect(error).toBeInstanceOf(HintgateError);
          expect((error as HintgateError).code).toBe('invalid_policy');
          expect((error as Error).message).not.toBe('');
        }
      }),
    );
  });

  it('accepts every well-formed policy and returns it unchanged', () => {
    const glob = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_.:* -]{1,12}$/),
      fc.constantFrom('file:src/**', '{github,gitlab}_*', '[abc]_?', 'git \\*'),
    );
    const hints = fc.record(
      Object.fromEntries(HINT_NAMES.map((name) => [name, fc.boolean()])) as Record<
        (typeof HINT_NAMES)[number],
        fc.Arbitrary<boolean>
      >,
      { requiredKeys: [] },
    );
    const policyRule = fc.record(
      {
        tool: glob,
        origin: glob,
        annotations: hints,
        key: glob,
        decision: fc.constantFrom('allow', 'ask', 'deny'),
        priority: fc.double({ noNaN: true, noDefaultInfinity: true }),
        modes: fc.uniqueArray(fc.constantFrom(...MODES), { minLength: 1 }),
        reason: fc.string(),
      },
      { requiredKeys: ['decision'] },
    );
    const policy = fc.record(
      { mode: fc.constantFrom(...MODES), rules: fc.array(policyRule) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(policy, (value) => {
        const checked: Policy = checkPolicy(value);
        expect(checked).toEqual(value);
        expect(Object.isFrozen(checked)).toBe(true);
      }),
    );
  });
});
