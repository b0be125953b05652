import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createJsonlAuditSink } from '../audit/jsonl-audit-sink.js';
import { createMemoryAuditSink } from '../audit/memory-audit-sink.js';
import { type ApprovalAsk, type Authorizer, allowAll } from '../policy/authorizer.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE, READ_ONLY } from '../tool/presets.js';
import { AuditWriteError } from './audit-write-error.js';
import { createRuntime } from './create-runtime.js';

const echo = (result: unknown, extra: Record<string, unknown> = {}) =>
  defineTool({
    name: 'echo',
    description: 'Returns a fixed result',
    inputSchema: z.object({}),
    annotations: READ_ONLY,
    ...extra,
    execute: () => result,
  });

const one = async (tool: ReturnType<typeof echo>, options: { maxOutputChars?: number } = {}) => {
  const [result] = await createRuntime({ mode: 'yolo', tools: [tool], ...options }).execute([
    { id: '1', name: 'echo' },
  ]);
  return result;
};

describe('execute: output', () => {
  it('turns a string into a text block', async () => {
    expect(await one(echo('hello'))).toMatchObject({
      status: 'ok',
      content: [{ type: 'text', text: 'hello' }],
    });
  });

  it('turns an object into structuredContent plus its JSON text', async () => {
    const result = await one(echo({ total: 2 }));
    expect(result?.structuredContent).toEqual({ total: 2 });
    expect(result?.content).toEqual([{ type: 'text', text: '{"total":2}' }]);
  });

  it('passes an MCP CallToolResult through, and isError makes it a tool_error', async () => {
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' } as const;
    expect((await one(echo({ content: [image] })))?.content).toEqual([image]);
    const failed = await one(
      echo({ content: [{ type: 'text', text: 'quota exceeded' }], isError: true }),
    );
    expect(failed).toMatchObject({
      status: 'error',
      isError: true,
      error: { code: 'tool_error', message: 'quota exceeded' },
    });
  });

  it('strips fields the outputSchema does not name, as a sanitizer', async () => {
    const tool = echo(
      { data: [{ id: 'c1', name: 'Ada', internalNotes: 'vip' }], stripeCustomerId: 'cus_1' },
      { outputSchema: z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) }) },
    );
    const result = await one(tool);
    expect(result?.structuredContent).toEqual({ data: [{ id: 'c1', name: 'Ada' }] });
    expect(JSON.stringify(result?.content)).not.toContain('internalNotes');
  });

  it('reports output that breaks the outputSchema as tool_error naming the field', async () => {
    const tool = echo(
      { data: [{ id: 7 }] },
      { outputSchema: z.object({ data: z.array(z.object({ id: z.string() })) }) },
    );
    const result = await one(tool);
    expect(result?.error?.code).toBe('tool_error');
    expect(result?.error?.message).toContain('data.0.id');
  });

  it('cuts long text at maxOutputChars and says so', async () => {
    const result = await one(echo('x'.repeat(50_000)));
    expect(result?.truncated).toBe(true);
    const text = result?.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text.length).toBeLessThanOrEqual(25_000);
    expect(text).toContain('output truncated');
  });

  it('drops list items from the end of list-shaped output and sets meta.truncated', async () => {
    const data = Array.from({ length: 100 }, (_, i) => ({ id: i, text: 'y'.repeat(50) }));
    const result = await one(echo({ meta: { cursor: 'abc' }, data }), { maxOutputChars: 1_000 });
    const structured = result?.structuredContent as {
      meta: Record<string, unknown>;
      data: unknown[];
    };
    expect(result?.truncated).toBe(true);
    expect(structured.meta).toEqual({ cursor: 'abc', truncated: true });
    expect(structured.data.length).toBeGreaterThan(1);
    expect(structured.data.length).toBeLessThan(100);
    expect(structured.data[0]).toEqual(data[0]);
    expect(result?.content).toEqual([{ type: 'text', text: JSON.stringify(structured) }]);
  });

  it('honours a per-tool maxOutputChars', async () => {
    const result = await one(echo('z'.repeat(500), { maxOutputChars: 200 }));
    const text = result?.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text.length).toBeLessThanOrEqual(200);
  });
});

describe('execute: the policy hook', () => {
  const tools = (ran: string[]) => [
    defineTool({
      name: 'list',
      description: 'Lists',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      execute: () => {
        ran.push('list');
        return 'listed';
      },
    }),
    defineTool({
      name: 'drop',
      description: 'Drops a table',
      inputSchema: z.object({ table: z.string() }),
      annotations: DESTRUCTIVE,
      approvalKey: (args) => `table:${args.table}`,
      execute: (args) => {
        ran.push(`drop ${args.table}`);
        return 'dropped';
      },
    }),
  ];
  const askForDestructive: Authorizer['decide'] = (call) =>
    call.class === 'destructive'
      ? { decision: 'ask', reason: 'destructive tool' }
      : { decision: 'allow', reason: 'read-only tool' };

  it('asks by default (mode ask): without an approver a destructive call is denied, a read runs', async () => {
    const ran: string[] = [];
    const results = await createRuntime({ tools: tools(ran) }).execute([
      { id: '1', name: 'drop', arguments: { table: 't' } },
      { id: '2', name: 'list' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['denied', 'ok']);
    expect(results[0]?.error?.message).toContain('no approver is configured');
    expect(ran).toEqual(['list']);
  });

  it('runs every call with the allowAll authorizer', async () => {
    const ran: string[] = [];
    const results = await createRuntime({ tools: tools(ran), authorizer: allowAll }).execute([
      { id: '1', name: 'drop', arguments: { table: 't' } },
    ]);
    expect(results[0]?.status).toBe('ok');
  });

  it('does not run a denied call and tells the model not to retry it blindly', async () => {
    const ran: string[] = [];
    const runtime = createRuntime({
      tools: tools(ran),
      authorizer: {
        decide: (call) =>
          call.name === 'drop'
            ? { decision: 'deny', reason: 'rule "no drops"' }
            : { decision: 'allow', reason: 'ok' },
      },
    });
    const results = await runtime.execute([
      { id: '1', name: 'drop', arguments: { table: 't' } },
      { id: '2', name: 'list' },
    ]);
    expect(results.map((r) => r.status)).toEqual(['denied', 'ok']);
    expect(results[0]?.error?.message).toMatch(/rule "no drops".*Do not retry it unchanged/);
    expect(ran).toEqual(['list']);
  });

  it('denies an ask when no approver is configured, saying how to allow it', async () => {
    const ran: string[] = [];
    const runtime = createRuntime({ tools: tools(ran), authorizer: { decide: askForDestructive } });
    const [result] = await runtime.execute([{ id: '1', name: 'drop', arguments: { table: 't' } }]);
    expect(result?.status).toBe('denied');
    expect(result?.error?.message).toContain('no approver is configured');
    expect(ran).toEqual([]);
  });

  it('asks all approvals of a batch at once, before any call that needs one starts', async () => {
    const ran: string[] = [];
    const asked: ApprovalAsk[][] = [];
    const runtime = createRuntime({
      tools: tools(ran),
      authorizer: {
        decide: askForDestructive,
        approve: async (asks) => {
          asked.push([...asks]);
          // The read the policy allows need not wait for the person; the drops do.
          expect(ran.filter((entry) => entry.startsWith('drop'))).toEqual([]);
          return asks.map((ask) => ({
            allow: ask.call.arguments.table === 'tmp',
            reason: 'person said so',
          }));
        },
      },
    });
    const results = await runtime.execute([
      { id: '1', name: 'list' },
      { id: '2', name: 'drop', arguments: { table: 'tmp' } },
      { id: '3', name: 'drop', arguments: { table: 'users' } },
    ]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.map((ask) => ask.call.approvalKeys)).toEqual([['table:tmp'], ['table:users']]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'denied']);
    expect(ran.sort()).toEqual(['drop tmp', 'list']);
  });

  it('fails closed when the approver throws', async () => {
    const ran: string[] = [];
    const runtime = createRuntime({
      tools: tools(ran),
      authorizer: {
        decide: askForDestructive,
        approve: () => Promise.reject(new Error('terminal closed')),
      },
    });
    const [result] = await runtime.execute([{ id: '1', name: 'drop', arguments: { table: 't' } }]);
    expect(result?.status).toBe('denied');
    expect(result?.error?.message).toContain('terminal closed');
    expect(ran).toEqual([]);
  });
});

describe('execute: audit', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-audit-'));
  });
  afterEach(async () => {
    vi.useRealTimers();
    await rm(dir, { recursive: true, force: true });
  });

  const login = defineTool({
    name: 'login',
    description: 'Logs in',
    inputSchema: z.object({ user: z.string(), password: z.string() }),
    annotations: READ_ONLY,
    execute: () => 'welcome',
  });

  it('records started and ended events with a digest, not the arguments', async () => {
    const sink = createMemoryAuditSink();
    const runtime = createRuntime({ mode: 'yolo', tools: [login], auditSinks: [sink] });
    await runtime.execute([
      { id: '1', name: 'login', arguments: { user: 'ada', password: 'hunter2' } },
      { id: '2', name: 'nope' },
    ]);
    expect(sink.events.map((e) => [e.type, e.callId])).toEqual([
      ['call.started', '1'],
      ['call.succeeded', '1'],
      ['call.failed', '2'],
    ]);
    const [started, succeeded, failed] = sink.events;
    expect(started).toMatchObject({
      tool: 'login',
      origin: 'local',
      class: 'read',
      decision: 'allow',
    });
    expect(started?.reason).toBeTruthy();
    expect(succeeded).toMatchObject({ status: 'ok', attempts: 1 });
    expect(succeeded?.argsDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(failed).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(JSON.stringify(sink.events)).not.toContain('hunter2');
  });

  it('includes arguments with secrets redacted when asked to', async () => {
    const sink = createMemoryAuditSink();
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [login],
      auditSinks: [sink],
      auditArguments: true,
    });
    await runtime.execute([
      { id: '1', name: 'login', arguments: { user: 'ada', password: 'hunter2' } },
    ]);
    expect(sink.events[0]?.arguments).toEqual({ user: 'ada', password: '[redacted]' });
  });

  it('has every event of a batch on disk in the JSONL log before execute resolves', async () => {
    const path = join(dir, 'nested', 'audit.jsonl');
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [login],
      auditSinks: [createJsonlAuditSink({ path })],
    });
    await runtime.execute([
      { id: '1', name: 'login', arguments: { user: 'a', password: 'b' } },
      { id: '2', name: 'login', arguments: { user: 'c', password: 'd' } },
    ]);
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; callId: string });
    expect(lines.map((e) => `${e.type}:${e.callId}`).sort()).toEqual([
      'call.started:1',
      'call.started:2',
      'call.succeeded:1',
      'call.succeeded:2',
    ]);
    await runtime.close();
  });

  it('rejects execute when the audit log cannot be written, rather than lose events silently', async () => {
    const path = join(dir, 'audit.jsonl');
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [login],
      auditSinks: [createJsonlAuditSink({ path: join(path, 'x', '\0bad') })],
    });
    const failure = await runtime
      .execute([{ id: '1', name: 'login', arguments: { user: 'a', password: 'b' } }])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuditWriteError);
    expect(failure).toMatchObject({
      code: 'audit_write_failed',
      results: [{ id: '1', status: 'ok' }],
    });
  });

  it('records tool changes of the registry', async () => {
    const sink = createMemoryAuditSink();
    const runtime = createRuntime({ mode: 'yolo', tools: [login], auditSinks: [sink] });
    runtime.registry.configure('login', { enabled: false });
    expect(sink.events).toMatchObject([{ type: 'tool.changed', tool: 'login', change: 'removed' }]);
  });
});

describe('execute: failures of the parts around a tool', () => {
  const plain = defineTool({
    name: 'plain',
    description: 'Returns ok',
    inputSchema: z.object({}),
    annotations: READ_ONLY,
    execute: () => 'ok',
  });

  it('denies a call when the policy throws', async () => {
    const runtime = createRuntime({
      tools: [plain],
      authorizer: {
        decide: () => {
          throw new Error('rules file vanished');
        },
      },
    });
    const [result] = await runtime.execute([{ id: '1', name: 'plain' }]);
    expect(result).toMatchObject({ status: 'denied', attempts: 0 });
    expect(result?.error?.message).toContain('rules file vanished');
  });

  it('fails the call, not the batch, when a schema throws while validating', async () => {
    const throwing = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => {
          throw new Error('validator crashed');
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    } as const;
    const tool = defineTool({
      name: 'odd',
      description: 'Odd schemas',
      inputSchema: throwing,
      execute: () => 'ok',
    });
    const out = defineTool({
      name: 'odd_out',
      description: 'Odd output schema',
      inputSchema: z.object({}),
      outputSchema: throwing,
      annotations: READ_ONLY,
      execute: () => ({ a: 1 }),
    });
    const results = await createRuntime({ mode: 'yolo', tools: [tool, out] }).execute([
      { id: '1', name: 'odd' },
      { id: '2', name: 'odd_out' },
    ]);
    expect(results.map((r) => r.error?.code)).toEqual(['tool_error', 'tool_error']);
    expect(results[0]?.error?.message).toContain('validator crashed');
    expect(results[1]?.error?.message).toContain('validator crashed');
  });
});
