import { describe, expect, it, vi } from 'vitest';
import { deriveApprovalKeys } from './derive-approval-keys.js';

describe('deriveApprovalKeys', () => {
  it('uses a string approvalKey as the only key, over the resource keys', () => {
    const tool = { approvalKey: (args: Record<string, unknown>) => `host:${String(args.host)}` };
    expect(deriveApprovalKeys(tool, { host: 'example.com' }, ['file:a'])).toEqual([
      'host:example.com',
    ]);
  });

  it('hands the arguments to approvalKey', () => {
    const approvalKey = vi.fn(() => 'k');
    const args = { path: 'a' };
    deriveApprovalKeys({ approvalKey }, args, []);
    expect(approvalKey).toHaveBeenCalledWith(args);
  });

  it('dedupes, sorts and drops empty keys of an array approvalKey', () => {
    const tool = { approvalKey: () => ['cmd:rm', '', 'cmd:git', 'cmd:rm'] };
    expect(deriveApprovalKeys(tool, {}, [])).toEqual(['cmd:git', 'cmd:rm']);
  });

  it('gives equal keys whatever order approvalKey lists them in', () => {
    expect(deriveApprovalKeys({ approvalKey: () => ['b', 'a'] }, {}, [])).toEqual(
      deriveApprovalKeys({ approvalKey: () => ['a', 'b'] }, {}, []),
    );
  });

  it('falls back to the resource keys, deduped and sorted, when approvalKey gives nothing', () => {
    const resourceKeys = Object.freeze(['file:b', 'file:a', 'file:b']);
    expect(deriveApprovalKeys({ approvalKey: () => '' }, {}, resourceKeys)).toEqual([
      'file:a',
      'file:b',
    ]);
    expect(deriveApprovalKeys({ approvalKey: () => [] }, {}, resourceKeys)).toEqual([
      'file:a',
      'file:b',
    ]);
    expect(deriveApprovalKeys({}, {}, resourceKeys)).toEqual(['file:a', 'file:b']);
    expect(resourceKeys).toEqual(['file:b', 'file:a', 'file:b']);
  });

  it('gives `*` (the whole tool) without approvalKey or resource keys', () => {
    expect(deriveApprovalKeys({}, {}, [])).toEqual(['*']);
    expect(deriveApprovalKeys({ approvalKey: () => [''] }, {}, [])).toEqual(['*']);
  });

  it('drops non-string keys an untyped approvalKey returns', () => {
    const tool = { approvalKey: () => ['ok', 3, null] as unknown as string[] };
    expect(deriveApprovalKeys(tool, {}, [])).toEqual(['ok']);
  });
});
