import { describe, expect, it, vi } from 'vitest';
import { deriveApprovalKeys, deriveCallApprovalKeys } from './derive-approval-keys.js';

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

describe('deriveCallApprovalKeys', () => {
  it('passes on the parts a tool could not understand, with its keys', () => {
    const tool = {
      approvalKey: () => ({
        keys: ['b', 'a'],
        opaque: [
          { reason: 'command substitution $(id)' },
          { reason: 'sets PATH', hidesCommand: true },
        ],
      }),
    };
    expect(deriveCallApprovalKeys(tool, {}, [])).toEqual({
      keys: ['a', 'b'],
      opaque: [
        { reason: 'command substitution $(id)' },
        { reason: 'sets PATH', hidesCommand: true },
      ],
    });
  });

  it('counts a malformed part as a part not understood, never as none', () => {
    const tool = {
      approvalKey: () => ({ keys: ['k'], opaque: [null, { reason: 3 }, 'x'] }) as never,
    };
    const { opaque } = deriveCallApprovalKeys(tool, {}, []) as { opaque: readonly unknown[] };
    expect(opaque).toHaveLength(3);
    expect(opaque).toContainEqual({ reason: 'a part of the call its tool could not understand' });
  });

  it('waits for an asynchronous approvalKey, and keeps the fallbacks', async () => {
    const tool = { approvalKey: async () => ({ keys: [], opaque: [{ reason: 'r' }] }) };
    const derived = deriveCallApprovalKeys(tool, {}, ['file:b', 'file:a']);
    expect(derived).toBeInstanceOf(Promise);
    expect(await derived).toEqual({ keys: ['file:a', 'file:b'], opaque: [{ reason: 'r' }] });
  });

  it('is refused by deriveApprovalKeys, which cannot wait', () => {
    const tool = { approvalKey: async () => ['k'] };
    expect(() => deriveApprovalKeys(tool, {}, [])).toThrow(
      expect.objectContaining({ code: 'invalid_tool' }),
    );
  });
});
