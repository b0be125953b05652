import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolAnnotations } from '../tool/annotations.js';
import { classify } from '../tool/classify.js';
import { defineTool } from '../tool/define-tool.js';
import { effectiveAnnotations } from '../tool/effective-annotations.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import type { CallRequest } from './authorizer.js';
import { compileRules } from './compiled-rule.js';
import { decideCall, isOffered, visibleInMode } from './decide-call.js';
import { MODES, type Mode, type PolicyRule } from './policy-types.js';

const request = (
  name: string,
  annotations: ToolAnnotations,
  options: {
    keys?: string[];
    origin?: string;
    trusted?: boolean;
    gated?: boolean;
    nameOnOrigin?: string;
  } = {},
): CallRequest => {
  const trusted = options.trusted ?? true;
  const tool = defineTool({
    name,
    ...(options.nameOnOrigin === undefined ? {} : { nameOnOrigin: options.nameOnOrigin }),
    description: `${name} tool`,
    inputSchema: z.object({}),
    annotations,
    ...(options.gated === undefined ? {} : { gated: options.gated }),
    execute: () => 'ok',
  });
  const effective = effectiveAnnotations(trusted ? annotations : undefined);
  return {
    id: 'c1',
    name,
    tool,
    origin: options.origin ?? 'local',
    trusted,
    claimed: annotations,
    effective,
    class: classify(effective),
    arguments: {},
    resourceKeys: [],
    approvalKeys: options.keys ?? ['*'],
  };
};

const decide = (call: CallRequest, mode: Mode, rules: PolicyRule[] = []) =>
  decideCall(call, mode, compileRules(rules));

const read = request('read_thing', READ_ONLY);
const write = request('save_thing', WRITE);
const destroy = request('delete_thing', DESTRUCTIVE);

describe('decideCall: every mode x class, no rules', () => {
  const expected: Record<Mode, [string, string, string]> = {
    plan: ['allow', 'deny', 'deny'],
    ask: ['allow', 'ask', 'ask'],
    auto: ['allow', 'allow', 'ask'],
    allowlist: ['ask', 'ask', 'ask'],
    yolo: ['allow', 'allow', 'allow'],
  };
  for (const mode of MODES) {
    it(`mode ${mode}: read ${expected[mode][0]}, write ${expected[mode][1]}, destructive ${expected[mode][2]}`, () => {
      expect([read, write, destroy].map((call) => decide(call, mode).decision)).toEqual(
        expected[mode],
      );
    });
  }

  it('names the mode and the annotation that decided', () => {
    expect(decide(destroy, 'auto').reason).toBe(
      'mode auto asks before destructive calls; a destructive call (destructiveHint: true)',
    );
    expect(decide(request('mystery', {}), 'ask').reason).toContain(
      'destructiveHint absent: the spec default is true',
    );
    expect(decide(request('remote_read', READ_ONLY, { trusted: false }), 'ask').reason).toContain(
      'its annotations are not trusted',
    );
  });

  it('denies non-read calls in plan mode, telling the model to plan instead', () => {
    const decision = decide(write, 'plan');
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('mode plan allows read-only tools only');
    expect(decision.message).toContain('Propose the change in your plan');
    expect(visibleInMode('write', 'plan')).toBe(false);
    expect(visibleInMode('read', 'plan')).toBe(true);
    expect(visibleInMode('destructive', 'ask')).toBe(true);
  });

  it('treats an untrusted read-only claim as the spec defaults (destructive)', () => {
    expect(decide(request('remote_read', READ_ONLY, { trusted: false }), 'auto').decision).toBe(
      'ask',
    );
    expect(decide(request('remote_read', READ_ONLY, { trusted: false }), 'plan').decision).toBe(
      'deny',
    );
  });
});

describe('decideCall: rules', () => {
  it('lets an allow rule skip asking, and a deny rule refuse, naming the rule', () => {
    const rules: PolicyRule[] = [
      { tool: 'save_*', decision: 'allow', reason: 'saving is routine' },
      { tool: 'delete_*', decision: 'deny', reason: 'no deletions here' },
    ];
    expect(decide(write, 'ask', rules)).toMatchObject({ decision: 'allow' });
    expect(decide(write, 'ask', rules).reason).toContain(
      'rule #1 (allow tool "save_*"): saving is routine',
    );
    expect(decide(destroy, 'yolo', rules)).toMatchObject({ decision: 'deny' });
    expect(decide(destroy, 'yolo', rules).reason).toContain(
      'rule #2 (deny tool "delete_*"): no deletions here',
    );
  });

  it('makes an ask rule ask even for reads in auto, but not in yolo', () => {
    const rules: PolicyRule[] = [{ tool: 'read_*', decision: 'ask' }];
    expect(decide(read, 'auto', rules).decision).toBe('ask');
    expect(decide(read, 'yolo', rules).decision).toBe('allow');
  });

  it('never lets an allow rule run a mutating call in plan mode', () => {
    expect(decide(write, 'plan', [{ tool: '*', decision: 'allow', priority: 100 }]).decision).toBe(
      'deny',
    );
  });

  it('picks the highest priority, and deny > ask > allow at equal priority', () => {
    const deny: PolicyRule = { tool: '*', decision: 'deny' };
    const ask: PolicyRule = { tool: '*', decision: 'ask' };
    const allow: PolicyRule = { tool: '*', decision: 'allow' };
    expect(decide(write, 'yolo', [allow, ask, deny]).decision).toBe('deny');
    expect(decide(write, 'auto', [allow, ask]).decision).toBe('ask');
    expect(decide(write, 'ask', [{ ...allow, priority: 1 }, deny]).decision).toBe('allow');
    expect(
      decide(write, 'ask', [
        { ...ask, priority: 2 },
        { ...allow, priority: 1 },
      ]).decision,
    ).toBe('ask');
    expect(decide(write, 'ask', [deny, { ...allow, priority: -1 }]).decision).toBe('deny');
  });

  it('matches origins, effective annotations and modes', () => {
    const remote = request('fetch', { readOnlyHint: true, openWorldHint: true }, { origin: 'web' });
    expect(decide(remote, 'ask', [{ origin: 'w*', decision: 'deny' }]).decision).toBe('deny');
    expect(decide(remote, 'ask', [{ origin: 'local', decision: 'deny' }]).decision).toBe('allow');
    expect(
      decide(remote, 'ask', [{ annotations: { openWorldHint: true }, decision: 'ask' }]).decision,
    ).toBe('ask');
    expect(
      decide(remote, 'ask', [{ annotations: { openWorldHint: false }, decision: 'ask' }]).decision,
    ).toBe('allow');
    // Effective, not claimed: an untrusted read-only claim is destructive.
    const untrusted = request('lookup', READ_ONLY, { trusted: false });
    expect(
      decide(untrusted, 'yolo', [{ annotations: { destructiveHint: true }, decision: 'deny' }])
        .decision,
    ).toBe('deny');
    expect(decide(write, 'ask', [{ tool: '*', decision: 'allow', modes: ['auto'] }]).decision).toBe(
      'ask',
    );
    expect(decide(write, 'ask', [{ tool: '*', decision: 'allow', modes: ['ask'] }]).decision).toBe(
      'allow',
    );
  });

  it('matches a tool glob on the offered name, the name on its origin or <origin>__<name>', () => {
    // github's delete_repo, offered unprefixed and prefixed (another server has one too).
    const plain = request('delete_repo', DESTRUCTIVE, { origin: 'github' });
    const prefixed = request('github__delete_repo', DESTRUCTIVE, {
      origin: 'github',
      nameOnOrigin: 'delete_repo',
    });
    const deny = (tool: string, origin?: string): PolicyRule[] => [
      { tool, ...(origin === undefined ? {} : { origin }), decision: 'deny' },
    ];
    for (const call of [plain, prefixed]) {
      for (const glob of ['delete_repo', 'github__delete_repo', 'github__*', '*_repo']) {
        expect(decide(call, 'yolo', deny(glob)).decision, `${call.name} / ${glob}`).toBe('deny');
      }
      expect(decide(call, 'yolo', deny('delete_repo', 'github')).decision).toBe('deny');
      expect(decide(call, 'yolo', deny('gitlab__delete_repo')).decision).toBe('allow');
    }
    // Another server's delete_repo: the name matches it, github's qualified name does not.
    const other = request('evil__delete_repo', DESTRUCTIVE, {
      origin: 'evil',
      nameOnOrigin: 'delete_repo',
    });
    expect(decide(other, 'yolo', deny('delete_repo')).decision).toBe('deny');
    expect(decide(other, 'yolo', deny('github__delete_repo')).decision).toBe('allow');
    expect(decide(other, 'yolo', deny('delete_repo', 'github')).decision).toBe('allow');
    expect(decide(other, 'yolo', deny('github__*')).decision).toBe('allow');
  });

  it('matches key globs: allow needs every key, ask and deny need one', () => {
    const call = request('write_file', WRITE, { keys: ['file:src/a.ts', 'file:docs/b.md'] });
    expect(decide(call, 'ask', [{ key: 'file:src/**', decision: 'allow' }]).decision).toBe('ask');
    expect(decide(call, 'ask', [{ key: 'file:{src,docs}/**', decision: 'allow' }]).decision).toBe(
      'allow',
    );
    expect(decide(call, 'yolo', [{ key: 'file:docs/**', decision: 'deny' }]).decision).toBe('deny');
    expect(decide(call, 'auto', [{ key: 'file:docs/*', decision: 'ask' }]).decision).toBe('ask');
    const git = request('run_command', DESTRUCTIVE, { keys: ['git status'] });
    expect(
      decide(git, 'ask', [{ tool: 'run_command', key: 'git *', decision: 'allow' }]).decision,
    ).toBe('allow');
    const rm = request('run_command', DESTRUCTIVE, { keys: ['rm -rf'] });
    expect(
      decide(rm, 'ask', [{ tool: 'run_command', key: 'git *', decision: 'allow' }]).decision,
    ).toBe('ask');
  });

  it('skips the mode asking for a tool with gated: false, but not a deny or an explicit ask rule', () => {
    const ungated = request('stat_file', WRITE, { gated: false });
    expect(decide(ungated, 'ask')).toMatchObject({ decision: 'allow' });
    expect(decide(ungated, 'ask').reason).toContain('gated: false');
    expect(decide(ungated, 'ask', [{ tool: 'stat_file', decision: 'deny' }]).decision).toBe('deny');
    expect(decide(ungated, 'auto', [{ tool: 'stat_file', decision: 'ask' }]).decision).toBe('ask');
    expect(decide(ungated, 'plan').decision).toBe('deny');
  });

  it('errs wide for deny and ask keys: * crosses /, and a directory above protected files matches', () => {
    const deny: PolicyRule[] = [{ key: 'file:secrets/**', decision: 'deny' }];
    for (const key of ['file:secrets/k.pem', 'file:secrets', 'file:']) {
      expect(
        decide(request('write_file', WRITE, { keys: [key] }), 'yolo', deny).decision,
        key,
      ).toBe('deny');
    }
    expect(
      decide(request('write_file', WRITE, { keys: ['file:src/a'] }), 'yolo', deny).decision,
    ).toBe('allow');
    const push: PolicyRule[] = [{ tool: 'run_command', key: 'git push*', decision: 'deny' }];
    const pushBranch = request('run_command', DESTRUCTIVE, { keys: ['git push origin feat/x'] });
    expect(decide(pushBranch, 'yolo', push).decision).toBe('deny');
    // An allow stays narrow: `*` does not cross `/`.
    const allow: PolicyRule[] = [{ tool: 'run_command', key: 'git push*', decision: 'allow' }];
    expect(decide(pushBranch, 'ask', allow).decision).toBe('ask');
  });
});

describe('decideCall: a tool held back (blocked)', () => {
  it('is refused at visible?, before rules and modes: an allow rule in yolo does not run it', () => {
    const held = { ...read, blocked: { reason: 'tool "read_thing" changed since it was pinned' } };
    for (const mode of MODES) {
      const decision = decide(held, mode, [{ tool: 'read_thing', decision: 'allow' }]);
      expect(decision).toEqual({
        decision: 'deny',
        reason: 'tool "read_thing" changed since it was pinned',
      });
    }
  });

  it('is refused even when its configuration also requires approval', () => {
    const held = {
      ...write,
      blocked: { reason: 'not pinned yet' },
      requireApproval: { reason: 'every call asks' },
    };
    expect(decide(held, 'ask').decision).toBe('deny');
  });

  it('is not offered by isOffered, in any mode, while others are', () => {
    expect(isOffered({ class: 'read', blocked: { reason: 'held' } }, undefined)).toBe(false);
    expect(isOffered({ class: 'read' }, 'plan')).toBe(true);
    expect(isOffered({ class: 'write' }, 'plan')).toBe(false);
  });
});

describe('decideCall: the mode default shared per tool', () => {
  it('gives every call of a tool one frozen decision, and a new one when the mode changes', () => {
    const first = request('edit', WRITE);
    const second = { ...first, id: 'c2', arguments: { path: 'b' } };
    const asked = decideCall(first, 'ask', []);
    expect(asked.decision).toBe('ask');
    expect(decideCall(second, 'ask', [])).toBe(asked);
    expect(Object.isFrozen(asked)).toBe(true);
    const allowed = decideCall(second, 'yolo', []);
    expect(allowed).toEqual({
      decision: 'allow',
      reason:
        'mode yolo runs every call that no rule denies; a write call (readOnlyHint: false, destructiveHint: false)',
    });
    expect(decideCall(first, 'yolo', [])).toBe(allowed);
  });

  it('still decides each call by the rules that match it, and an opaque call on its own', () => {
    const call = request('edit', WRITE, { keys: ['item:a'] });
    const rules = compileRules([{ decision: 'deny', tool: 'edit', key: 'item:a' }]);
    expect(decideCall(call, 'yolo', rules).decision).toBe('deny');
    const other = { ...call, approvalKeys: ['item:b'] };
    expect(decideCall(other, 'yolo', rules).decision).toBe('allow');
    const opaque = { ...other, opaque: [{ reason: 'a $(substitution)' }] };
    const asked = decideCall(opaque, 'ask', rules);
    expect(asked.reason).toContain('not fully understood (a $(substitution))');
    expect(decideCall(other, 'ask', rules).reason).not.toContain('not fully understood');
  });

  it('does not share a decision between calls with different requireApproval', () => {
    const call = request('look', READ_ONLY);
    expect(decideCall(call, 'yolo', []).decision).toBe('allow');
    const required = { ...call, requireApproval: { reason: 'the tool is not pinned' } };
    expect(decideCall(required, 'yolo', []).decision).toBe('ask');
    expect(decideCall(call, 'yolo', []).decision).toBe('allow');
  });
});
