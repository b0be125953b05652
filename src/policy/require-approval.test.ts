import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry } from '../registry/index.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createApprovalStore } from './approval-store.js';
import type { ApprovalAnswer, ApprovalRequest, Mode, PolicyRule } from './policy-types.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const REASON = 'tool "lookup" is not reviewed yet';

/** A registry with one read-only, ungated tool of a trusted origin, and what ran. */
const setup = async (options: { mode: Mode; rules?: PolicyRule[]; answer: ApprovalAnswer }) => {
  const dir = await mkdtemp(join(tmpdir(), 'hintgate-require-approval-'));
  dirs.push(dir);
  const ran: string[] = [];
  const registry = createRegistry({ env: {} });
  registry.addOrigin({
    name: 'srv',
    layer: 'project',
    trusted: true,
    tools: [
      defineTool({
        name: 'lookup',
        description: 'Looks a record up.',
        inputSchema: z.object({ key: z.string() }),
        annotations: READ_ONLY,
        gated: false,
        execute: ({ key }) => {
          ran.push(key);
          return `found ${key}`;
        },
      }),
    ],
  });
  const asked: ApprovalRequest[] = [];
  const approvalsFile = join(dir, 'approvals.json');
  const runtime = createRuntime({
    registry,
    mode: options.mode,
    rules: options.rules ?? [],
    approvals: createApprovalStore({ path: approvalsFile }),
    approver: (request) => {
      asked.push(request);
      return options.answer;
    },
  });
  const call = async (key = 'a') => {
    const [result] = await runtime.execute([{ id: 'c', name: 'lookup', arguments: { key } }]);
    return result;
  };
  return { registry, runtime, asked, ran, call, approvalsFile };
};

describe('requireApproval: a tool whose every call asks a person', () => {
  it.each(['yolo', 'auto', 'ask'] as const)(
    'asks in mode %s, with the reason, for a read-only ungated tool of a trusted origin',
    async (mode) => {
      const s = await setup({ mode, answer: { decision: 'deny' } });
      expect((await s.call())?.status).toBe('ok');
      expect(s.asked).toHaveLength(0);

      s.registry.configure('lookup', { requireApproval: { reason: REASON } });
      const denied = await s.call();
      expect(denied?.status).toBe('denied');
      expect(s.asked).toHaveLength(1);
      expect(s.asked[0]?.reason).toContain(REASON);
      expect(s.ran).toEqual(['a']);
    },
  );

  it('offers to remember an approval only in the ways that would hold', async () => {
    const s = await setup({
      mode: 'ask',
      rules: [{ tool: 'lookup', decision: 'ask' }],
      answer: { decision: 'deny' },
    });
    await s.call();
    await s.runtime.execute([{ id: 'n', name: 'lookup', arguments: { key: 'b' } }], {
      session: null,
    });
    s.registry.configure('lookup', { requireApproval: { reason: REASON } });
    await s.call();
    expect(s.asked.map((request) => request.remember)).toEqual([
      ['once', 'session', 'always'],
      ['once', 'always'],
      ['once', 'session'],
    ]);
  });

  it('asks even when an allow rule matches; a deny rule still denies without asking', async () => {
    const allowed = await setup({
      mode: 'allowlist',
      rules: [{ tool: 'lookup', decision: 'allow' }],
      answer: { decision: 'allow' },
    });
    allowed.registry.configure('lookup', { requireApproval: { reason: REASON } });
    expect((await allowed.call())?.status).toBe('ok');
    expect(allowed.asked).toHaveLength(1);

    const denied = await setup({
      mode: 'yolo',
      rules: [{ tool: 'lookup', decision: 'deny', reason: 'never' }],
      answer: { decision: 'allow' },
    });
    denied.registry.configure('lookup', { requireApproval: { reason: REASON } });
    expect((await denied.call())?.status).toBe('denied');
    expect(denied.asked).toHaveLength(0);
  });

  it('remembers an approval for the session only, per version: "always" is not written to the approvals file', async () => {
    const s = await setup({ mode: 'yolo', answer: { decision: 'allow', remember: 'always' } });
    s.registry.configure('lookup', { requireApproval: { reason: REASON, version: 'v1' } });
    expect((await s.call())?.status).toBe('ok');
    expect((await s.call())?.status).toBe('ok');
    expect(s.asked).toHaveLength(1);
    expect(await readFile(s.approvalsFile, 'utf8').catch(() => 'absent')).toBe('absent');

    // Another definition of the tool: the approval of the first does not carry over.
    s.registry.configure('lookup', { requireApproval: { reason: REASON, version: 'v2' } });
    expect((await s.call())?.status).toBe('ok');
    expect(s.asked).toHaveLength(2);
    expect(s.ran).toEqual(['a', 'a', 'a']);
  });

  it('does not honour approvals remembered for the project, nor session approvals given before it was required', async () => {
    const s = await setup({
      mode: 'ask',
      rules: [{ tool: 'lookup', decision: 'ask' }],
      answer: { decision: 'allow', remember: 'always' },
    });
    expect((await s.call())?.status).toBe('ok');
    expect(s.asked).toHaveLength(1);
    expect(await readFile(s.approvalsFile, 'utf8')).toContain('srv:lookup');

    s.registry.configure('lookup', { trusted: false, requireApproval: { reason: REASON } });
    expect((await s.call())?.status).toBe('ok');
    expect(s.asked).toHaveLength(2);
  });
});

describe('per-tool trust in the registry configuration', () => {
  it('trusted: false ignores the claim of a trusted origin; trusted: true uses the claim of an untrusted one', async () => {
    const s = await setup({ mode: 'auto', answer: { decision: 'deny' } });
    expect(s.registry.resolve('lookup')?.class).toBe('read');
    s.registry.configure('lookup', { trusted: false });
    expect(s.registry.resolve('lookup')).toMatchObject({ trusted: false, class: 'destructive' });
    s.registry.setTrusted('srv', false);
    s.registry.configure('lookup', { trusted: true });
    expect(s.registry.resolve('lookup')).toMatchObject({ trusted: true, class: 'read' });
    // A stated override is used whatever the trust; the unstated hints follow the trust.
    s.registry.configure('lookup', { trusted: false, annotations: { readOnlyHint: false } });
    expect(s.registry.resolve('lookup')?.effective).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('rejects a malformed trusted or requireApproval', () => {
    const registry = createRegistry({ env: {} });
    expect(() => registry.configure('x', { trusted: 'yes' as unknown as boolean })).toThrow(
      'trusted must be true or false',
    );
    expect(() => registry.configure('x', { requireApproval: { reason: '' } })).toThrow(
      'requireApproval.reason must be a non-empty string',
    );
  });
});
