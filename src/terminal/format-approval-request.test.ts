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

  it('lists at most ten keys, then how many more', () => {
    const keys = Array.from({ length: 14 }, (_, i) => `file:${i}`);
    const text = formatApprovalRequest(request({}, keys)).join('\n');
    expect(text).toContain('- file:9');
    expect(text).not.toContain('- file:10');
    expect(text).toContain('… and 4 more');
  });

  it('uses colour codes only when asked to', () => {
    expect(formatApprovalRequest(request({})).join('\n')).not.toContain('\u001b');
    expect(formatApprovalRequest(request({}), { color: true }).join('\n')).toContain('\u001b[1m');
  });
});
