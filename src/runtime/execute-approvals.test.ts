import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../audit/memory-audit-sink.js';
import { createApprovalStore } from '../policy/node.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../policy/policy-types.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import type { RuntimeOptions } from './runtime-options.js';

const makeTools = (ran: string[]) => [
  defineTool({
    name: 'list_files',
    title: 'List files',
    description: 'Lists files',
    inputSchema: z.object({}),
    annotations: READ_ONLY,
    execute: () => {
      ran.push('list');
      return 'a.txt';
    },
  }),
  defineTool({
    name: 'write_file',
    description: 'Writes a file',
    inputSchema: z.object({ path: z.string() }),
    annotations: WRITE,
    resources: ['file:{path}'],
    execute: ({ path }) => {
      ran.push(`write ${path}`);
      return 'written';
    },
  }),
  defineTool({
    name: 'delete_files',
    description: 'Deletes files',
    inputSchema: z.object({ paths: z.array(z.string()) }),
    annotations: DESTRUCTIVE,
    resources: ['file:{paths}'],
    execute: ({ paths }) => {
      ran.push(`delete ${paths.join(',')}`);
      return 'deleted';
    },
  }),
];

/** An approver that answers from a script and records what it was asked. */
const recording = (answers: (request: ApprovalRequest) => ApprovalAnswer) => {
  const asked: ApprovalRequest[] = [];
  const approver: Approver = (request) => {
    asked.push(request);
    return answers(request);
  };
  return { asked, approver };
};

const del = (id: string, ...paths: string[]) => ({
  id,
  name: 'delete_files',
  arguments: { paths },
});

describe('approvals', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-approvals-'));
  });
  afterEach(async () => {
    vi.useRealTimers();
    await rm(dir, { recursive: true, force: true });
  });

  const runtimeWith = (ran: string[], options: Partial<RuntimeOptions>) =>
    createRuntime({ tools: makeTools(ran), ...options });

  it('shows the person the tool, arguments, class, hints, keys and why, for every ask of the batch before any of those calls runs', async () => {
    const ran: string[] = [];
    const { asked, approver } = recording(() => {
      // list_files needs no approval and does not wait for the person; the others do.
      expect(ran.filter((entry) => entry !== 'list')).toEqual([]);
      return { decision: 'allow' };
    });
    const runtime = runtimeWith(ran, { approver });
    const results = await runtime.execute([
      { id: 'l', name: 'list_files' },
      { id: 'w', name: 'write_file', arguments: { path: 'a.txt' } },
      del('d', 'b.txt'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(asked.map((r) => [r.tool.name, r.position, r.total])).toEqual([
      ['write_file', 1, 2],
      ['delete_files', 2, 2],
    ]);
    expect(asked[1]).toMatchObject({
      callId: 'd',
      tool: { name: 'delete_files', description: 'Deletes files' },
      arguments: { paths: ['b.txt'] },
      class: 'destructive',
      effective: { destructiveHint: true, readOnlyHint: false },
      approvalKeys: ['file:b.txt'],
      origin: 'local',
      trusted: true,
    });
    expect(asked[1]?.reason).toContain('mode ask asks before every call that changes something');
  });

  it('runs nothing the person denies, and tells the model not to retry blindly', async () => {
    const ran: string[] = [];
    const { approver } = recording(() => ({ decision: 'deny', reason: 'not today' }));
    const results = await runtimeWith(ran, { approver }).execute([del('d', 'b.txt')]);
    expect(results[0]).toMatchObject({ status: 'denied', error: { code: 'denied' } });
    expect(results[0]?.error?.message).toMatch(
      /the user denied it: not today.*Do not retry it unchanged/,
    );
    expect(ran).toEqual([]);
  });

  it('remembers a session approval per (tool, key), and asks again for a new key', async () => {
    const ran: string[] = [];
    const { asked, approver } = recording(() => ({ decision: 'allow', remember: 'session' }));
    const runtime = runtimeWith(ran, { approver });
    await runtime.execute([del('1', 'a')]);
    await runtime.execute([del('2', 'a')]);
    expect(asked).toHaveLength(1);
    await runtime.execute([del('3', 'b')]);
    expect(asked).toHaveLength(2);
    // A second runtime is a new session.
    const other = runtimeWith(ran, { approver });
    await other.execute([del('4', 'a')]);
    expect(asked).toHaveLength(3);
  });

  it('does not ask twice in one batch for what the person just allowed for the session', async () => {
    const { asked, approver } = recording(() => ({ decision: 'allow', remember: 'session' }));
    const results = await runtimeWith([], { approver }).execute([del('1', 'a'), del('2', 'a')]);
    expect(asked).toHaveLength(1);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok']);
  });

  it('pre-approves a call with several keys only if every key is approved', async () => {
    const { asked, approver } = recording(() => ({ decision: 'allow', remember: 'session' }));
    const runtime = runtimeWith([], { approver });
    await runtime.execute([del('1', 'a'), del('2', 'b')]);
    expect(asked).toHaveLength(2);
    await runtime.execute([del('3', 'a', 'b')]);
    expect(asked).toHaveLength(2);
    await runtime.execute([del('4', 'a', 'c')]);
    expect(asked).toHaveLength(3);
    expect(asked[2]?.approvalKeys).toEqual(['file:a', 'file:c']);
  });

  it('asks again after a once approval', async () => {
    const { asked, approver } = recording(() => ({ decision: 'allow', remember: 'once' }));
    const runtime = runtimeWith([], { approver });
    await runtime.execute([del('1', 'a')]);
    await runtime.execute([del('2', 'a')]);
    expect(asked).toHaveLength(2);
  });

  it('keeps always approvals in the approvals file, honoured by a new runtime', async () => {
    const approvalsFile = join(dir, '.hintgate', 'approvals.json');
    const { asked, approver } = recording(() => ({ decision: 'allow', remember: 'always' }));
    await runtimeWith([], {
      approver,
      approvals: createApprovalStore({ path: approvalsFile }),
    }).execute([del('1', 'a')]);
    expect(asked).toHaveLength(1);
    const stored = JSON.parse(await readFile(approvalsFile, 'utf8')) as {
      approvals: Array<{ tool: string; key: string }>;
    };
    expect(stored.approvals).toMatchObject([{ tool: 'local:delete_files', key: 'file:a' }]);

    const ran: string[] = [];
    const fresh = runtimeWith(ran, { approvals: createApprovalStore({ path: approvalsFile }) });
    const results = await fresh.execute([del('2', 'a'), del('3', 'b')]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'denied']);
    expect(ran).toEqual(['delete a']);
  });

  it('remembers always for the session when no approvals file is configured, and says so', async () => {
    const sink = createMemoryAuditSink();
    const { asked, approver } = recording(() => ({ decision: 'allow', remember: 'always' }));
    const runtime = runtimeWith([], { approver, auditSinks: [sink] });
    await runtime.execute([del('1', 'a')]);
    await runtime.execute([del('2', 'a')]);
    expect(asked).toHaveLength(1);
    const granted = sink.events.find((e) => e.type === 'approval.granted');
    expect(granted?.reason).toContain('no approvals file is configured');
  });

  it('denies when the approver throws, returns nonsense, or does not answer in time', async () => {
    const throwing = await runtimeWith([], {
      approver: () => {
        throw new Error('tty gone');
      },
    }).execute([del('1', 'a')]);
    expect(throwing[0]?.error?.message).toContain('the approver failed: tty gone');

    const nonsense = await runtimeWith([], {
      approver: () => ({ decision: 'maybe' }) as never,
    }).execute([del('1', 'a')]);
    expect(nonsense[0]?.status).toBe('denied');
    expect(nonsense[0]?.error?.message).toContain('not { decision: "allow" | "deny" }');

    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const slow = runtimeWith([], {
      approvalTimeoutMs: 1_000,
      approver: (_request, { signal }) => {
        seen = signal;
        return new Promise(() => {});
      },
    }).execute([del('1', 'a')]);
    await vi.advanceTimersByTimeAsync(1_000);
    const [late] = await slow;
    expect(late?.status).toBe('denied');
    expect(late?.error?.message).toContain('no answer within 1 s');
    expect(seen?.aborted).toBe(true);
  });

  it('ends calls cancelled, not denied, when the batch is cancelled while a person decides', async () => {
    const ran: string[] = [];
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const runtime = runtimeWith(ran, {
      approver: (_request, { signal }) => {
        seen = signal;
        controller.abort();
        return new Promise(() => {});
      },
    });
    const results = await runtime.execute([del('1', 'a'), { id: 'l', name: 'list_files' }], {
      signal: controller.signal,
    });
    expect(results.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(seen?.aborted).toBe(true);
    expect(ran).toEqual([]);
  });

  it('asks the approver given to execute for that batch', async () => {
    const configured = recording(() => ({ decision: 'deny' }));
    const perBatch = recording(() => ({ decision: 'allow' }));
    const runtime = runtimeWith([], { approver: configured.approver });
    const [result] = await runtime.execute([del('1', 'a')], { approver: perBatch.approver });
    expect(result?.status).toBe('ok');
    expect(perBatch.asked).toHaveLength(1);
    expect(configured.asked).toHaveLength(0);
    const [viaConfigured] = await runtime.execute([del('2', 'b')]);
    expect(viaConfigured?.status).toBe('denied');
  });

  it('asks one request at a time, even for batches that run concurrently', async () => {
    let open = 0;
    let most = 0;
    const approver: Approver = async () => {
      open += 1;
      most = Math.max(most, open);
      await new Promise((resolve) => setTimeout(resolve, 5));
      open -= 1;
      return { decision: 'allow' };
    };
    const runtime = runtimeWith([], { approver });
    await Promise.all([
      runtime.execute([del('1', 'a'), del('2', 'b')]),
      runtime.execute([del('3', 'c')]),
    ]);
    expect(most).toBe(1);
  });

  it('records every decision with its reason in the audit events', async () => {
    const sink = createMemoryAuditSink();
    const runtime = runtimeWith([], {
      mode: 'auto',
      rules: [
        { tool: 'write_file', key: 'file:secret/**', decision: 'deny', reason: 'secrets stay put' },
      ],
      auditSinks: [sink],
      approver: () => ({ decision: 'deny' }),
    });
    await runtime.execute([
      { id: 'w1', name: 'write_file', arguments: { path: 'notes.txt' } },
      { id: 'w2', name: 'write_file', arguments: { path: 'secret/key.pem' } },
      del('d', 'x'),
    ]);
    const ends = Object.fromEntries(
      sink.events
        .filter((e) => e.type.startsWith('call.') && e.type !== 'call.started')
        .map((e) => [e.callId, e]),
    );
    expect(ends.w1).toMatchObject({ type: 'call.succeeded', decision: 'allow' });
    expect(ends.w1?.reason).toContain('mode auto runs reads and non-destructive writes');
    expect(ends.w2).toMatchObject({ type: 'call.failed', decision: 'deny' });
    expect(ends.w2?.reason).toContain(
      'rule #1 (deny tool "write_file", key "file:secret/**"): secrets stay put',
    );
    expect(ends.d).toMatchObject({ type: 'call.failed', decision: 'deny' });
    expect(ends.d?.reason).toContain('not approved: the user denied it');
    expect(sink.events.map((e) => e.type)).toContain('approval.requested');
    expect(sink.events.map((e) => e.type)).toContain('approval.denied');
  });
});

describe('modes in the runtime', () => {
  it('hides mutating tools in plan mode and denies calls to them', async () => {
    const ran: string[] = [];
    const runtime = createRuntime({ tools: makeTools(ran), mode: 'plan' });
    expect(runtime.listTools().map((t) => t.name)).toEqual(['list_files']);
    const results = await runtime.execute([
      { id: 'w', name: 'write_file', arguments: { path: 'a' } },
      { id: 'l', name: 'list_files' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['denied', 'ok']);
    expect(ran).toEqual(['list']);
    // An unknown name is answered with the visible tools only: plan mode does not leak the rest.
    const [unknown] = await runtime.execute([{ id: 'x', name: 'nope' }]);
    expect(unknown?.error?.message).toContain('Available tools: list_files.');
    runtime.setMode('auto');
    expect(runtime.mode).toBe('auto');
    expect(runtime.listTools().map((t) => t.name)).toEqual([
      'delete_files',
      'list_files',
      'write_file',
    ]);
  });

  it('builds a system prompt from effective hints and the current mode', async () => {
    const { createRegistry } = await import('../registry/index.js');
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'local', layer: 'project', tools: makeTools([]).slice(0, 2) });
    registry.addOrigin({
      name: 'remote',
      layer: 'project',
      trusted: false,
      tools: [
        defineTool({
          name: 'remote_lookup',
          description: 'Looks up',
          inputSchema: z.object({}),
          annotations: READ_ONLY,
          execute: () => '',
        }),
      ],
    });
    const runtime = createRuntime({ registry, mode: 'auto' });
    const prompt = runtime.systemPrompt();
    expect(prompt).toBe(runtime.systemPrompt());
    const destructiveSection = prompt.slice(prompt.indexOf('Destructive'));
    // Claims read-only, but its origin is untrusted: listed with the destructive tools.
    expect(destructiveSection).toContain('remote_lookup');
    runtime.setMode('plan');
    const plan = runtime.systemPrompt();
    expect(plan).toContain('list_files');
    expect(plan).not.toContain('write_file');
    expect(plan).not.toContain('remote_lookup');
  });

  it('rejects a bad mode or rule with what to fix', () => {
    expect(() => createRuntime({ tools: [], mode: 'careful' as never })).toThrow(/mode/);
    expect(() =>
      createRuntime({ tools: [], rules: [{ tool: 'x', decision: 'block' as never }] }),
    ).toThrow(/decision/);
    expect(() =>
      createRuntime({
        tools: [],
        mode: 'ask',
        authorizer: { decide: () => ({ decision: 'allow', reason: '' }) },
      }),
    ).toThrow(/not both/);
    expect(() => createRuntime({ tools: [] }).setMode('loose' as never)).toThrow(/mode/);
  });

  it('trusts annotations per origin and per tool through the trust option', async () => {
    const ran: string[] = [];
    const tools = makeTools(ran);
    const { createRegistry } = await import('../registry/index.js');
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'remote', layer: 'project', trusted: false, tools });
    const untrusted = createRuntime({ registry, mode: 'auto' });
    const [write] = await untrusted.execute([
      { id: 'w', name: 'write_file', arguments: { path: 'a' } },
    ]);
    expect(write?.status).toBe('denied');
    const plan = await untrusted.plan([{ id: 'l', name: 'list_files' }]);
    expect(plan[0]?.class).toBe('destructive');

    const registry2 = createRegistry({ env: {} });
    registry2.addOrigin({ name: 'remote', layer: 'project', trusted: false, tools });
    const trusted = createRuntime({
      registry: registry2,
      mode: 'auto',
      trust: { tools: { list_files: { readOnlyHint: true } } },
    });
    expect((await trusted.plan([{ id: 'l', name: 'list_files' }]))[0]?.class).toBe('read');
    expect(
      (await trusted.plan([{ id: 'w', name: 'write_file', arguments: { path: 'a' } }]))[0]?.class,
    ).toBe('destructive');
    const registry3 = createRegistry({ env: {} });
    registry3.addOrigin({ name: 'remote', layer: 'project', trusted: false, tools });
    const all = createRuntime({
      registry: registry3,
      mode: 'auto',
      trust: { origins: { remote: true } },
    });
    expect(
      (await all.execute([{ id: 'w', name: 'write_file', arguments: { path: 'a' } }]))[0]?.status,
    ).toBe('ok');
  });
});
