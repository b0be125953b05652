import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../../audit/memory-audit-sink.js';
import type { Mode } from '../../policy/policy-types.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../../tool/presets.js';
import type { Tool } from '../../tool/tool.js';
import { createMcpHttpHandler, type McpHttpHandler } from './create-mcp-http-handler.js';
import { createMcpToolServer, type McpToolServer } from './create-mcp-tool-server.js';
import {
  connectInMemory,
  connectOverFetch,
  type ElicitationScript,
  ERAS,
  type Era,
  eventually,
  type TestClient,
} from './mcp-clients.test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A tool server over `tools`, in `mode`, with a handler for HTTP clients. */
const serve = (tools: readonly Tool[], mode: Mode = 'auto') => {
  const runtime = createRuntime({ tools: [...tools], mode });
  const toolServer = createMcpToolServer({ runtime });
  const handler = createMcpHttpHandler({ toolServer });
  cleanups.push(async () => {
    await handler.close();
    await toolServer.close();
    await runtime.close();
  });
  return { runtime, toolServer, handler };
};

/** A client of `era`: 2025-11-25 over the in-memory transport, 2026-07-28 over fetch. */
const connect = async (
  era: Era,
  setup: { toolServer: McpToolServer; handler: McpHttpHandler },
  elicitation?: ElicitationScript,
): Promise<TestClient> => {
  const client =
    era === 'legacy'
      ? await connectInMemory(setup.toolServer, elicitation)
      : await connectOverFetch(setup.handler, era, elicitation);
  cleanups.push(() => client.close());
  return client;
};

const noHints = defineTool({
  name: 'no_hints',
  description: 'Claims nothing.',
  inputSchema: z.object({}),
  execute: () => 'ran',
});
const lookup = defineTool({
  name: 'lookup',
  title: 'Look up',
  description: 'Reads a record.',
  annotations: READ_ONLY,
  inputSchema: z.object({ id: z.string() }),
  outputSchema: z.object({ id: z.string(), found: z.boolean() }),
  meta: { 'example.com/owner': 'team-a' },
  execute: ({ id }) => ({ id, found: true }),
});
const partial = defineTool({
  name: 'partial',
  description: 'Says only that it is not read-only.',
  annotations: { readOnlyHint: false, openWorldHint: false },
  inputSchema: z.object({}),
  execute: () => 'ran',
});

describe.each(ERAS)('tools/list on the %s era', (era) => {
  it('keeps true, false and absent hints apart and adds hintgate hints under _meta', async () => {
    const setup = serve([noHints, lookup, partial]);
    const { client } = await connect(era, setup);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()]).toEqual(['lookup', 'no_hints', 'partial']);

    expect(byName.get('no_hints')).not.toHaveProperty('annotations');
    expect(byName.get('partial')?.annotations).toStrictEqual({
      readOnlyHint: false,
      openWorldHint: false,
    });
    expect(byName.get('lookup')?.annotations).toStrictEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });

    const listed = byName.get('lookup');
    expect(listed).toMatchObject({
      title: 'Look up',
      description: 'Reads a record.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      outputSchema: { type: 'object', properties: { found: { type: 'boolean' } } },
    });
    expect(listed?._meta).toMatchObject({
      'example.com/owner': 'team-a',
      'dev.hintgate/origin': 'local',
      'dev.hintgate/class': 'read',
      'dev.hintgate/trusted': true,
      'dev.hintgate/gated': true,
      'dev.hintgate/effective': {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
    // A tool that claims nothing is a destructive write by the spec defaults.
    expect(byName.get('no_hints')?._meta).toMatchObject({ 'dev.hintgate/class': 'destructive' });
  });

  it("keeps a result's own _meta but not the protocol's reserved keys of another sender", async () => {
    const relayed = defineTool({
      name: 'relayed',
      description: 'Returns a result as an upstream server sent it.',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: () => ({
        content: [{ type: 'text' as const, text: 'hi' }],
        _meta: {
          'io.modelcontextprotocol/serverInfo': { name: 'upstream', version: '1.0.0' },
          'example.com/trace': 't-1',
        },
      }),
    });
    const { client } = await connect(era, serve([relayed]));
    const result = await client.callTool({ name: 'relayed', arguments: {} });
    expect(result._meta?.['example.com/trace']).toBe('t-1');
    expect(
      (result._meta?.['io.modelcontextprotocol/serverInfo'] as { name?: string } | undefined)?.name,
    ).not.toBe('upstream');
  });

  it('maps results: structured output, errors with their code, unknown tools', async () => {
    const failing = defineTool({
      name: 'failing',
      description: 'Always fails.',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const setup = serve([lookup, failing]);
    const { client } = await connect(era, setup);

    const ok = await client.callTool({ name: 'lookup', arguments: { id: 'x1' } });
    expect(ok.isError ?? false).toBe(false);
    expect(ok.structuredContent).toEqual({ id: 'x1', found: true });
    expect(ok._meta).toMatchObject({ 'dev.hintgate/status': 'ok', 'dev.hintgate/attempts': 1 });

    const failed = await client.callTool({ name: 'failing', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain('disk on fire');
    expect(failed._meta).toMatchObject({
      'dev.hintgate/status': 'error',
      'dev.hintgate/code': 'tool_error',
    });

    const invalid = await client.callTool({ name: 'lookup', arguments: { id: 42 } });
    expect(invalid).toMatchObject({
      isError: true,
      _meta: { 'dev.hintgate/code': 'invalid_arguments' },
    });

    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown).toMatchObject({
      isError: true,
      _meta: { 'dev.hintgate/code': 'unknown_tool' },
    });
  });
});

describe.each(ERAS)('approvals on the %s era', (era) => {
  const runs: string[] = [];
  const remove = defineTool({
    name: 'remove',
    description: 'Deletes a file.',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    inputSchema: z.object({ path: z.string() }),
    resources: ['file:{path}'],
    execute: ({ path }) => {
      runs.push(path);
      return `removed ${path}`;
    },
  });
  afterEach(() => {
    runs.length = 0;
  });

  it('asks the client with a form and runs the call once the user allows it', async () => {
    const setup = serve([remove], 'auto');
    const client = await connect(era, setup, {});
    const result = await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(result.isError ?? false).toBe(false);
    expect(runs).toEqual(['a.txt']);
    expect(client.forms).toHaveLength(1);
    const [form] = client.forms;
    expect(form?.message).toContain('"remove"');
    expect(form?.message).toContain('Class: destructive');
    expect(form?.message).toContain('file:a.txt');
    expect(form?.message).toContain('"path": "a.txt"');
    expect(form?.message).toContain('mode auto');
    expect(form?.requestedSchema.properties.decision).toMatchObject({ default: 'deny' });
  });

  it('denies the call when the user declines, and the tool does not run', async () => {
    const setup = serve([remove], 'auto');
    const client = await connect(era, setup, { answer: () => ({ action: 'decline' }) });
    const result = await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(result).toMatchObject({ isError: true, _meta: { 'dev.hintgate/status': 'denied' } });
    expect(JSON.stringify(result.content)).toContain('declined');
    expect(runs).toEqual([]);
  });

  it('denies when the user picks Deny in the form', async () => {
    const setup = serve([remove], 'auto');
    const client = await connect(era, setup, {
      answer: () => ({ action: 'accept', content: { decision: 'deny' } }),
    });
    const result = await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(result).toMatchObject({ isError: true, _meta: { 'dev.hintgate/status': 'denied' } });
    expect(runs).toEqual([]);
  });

  it('remembers "allow for this session" for the same keys, within one connection only', async () => {
    const setup = serve([remove], 'auto');
    const client = await connect(era, setup, {
      answer: () => ({ action: 'accept', content: { decision: 'allow_session' } }),
    });
    await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(runs).toEqual(['a.txt', 'a.txt']);
    // A 2026-07-28 request carries no session, so the answer counts once there.
    expect(client.forms).toHaveLength(era === 'modern' ? 2 : 1);

    // Another client of the same server does not inherit the first one's approval.
    const other = await connect(era, setup, {
      answer: () => ({ action: 'decline' }),
    });
    const result = await other.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(result).toMatchObject({ isError: true, _meta: { 'dev.hintgate/status': 'denied' } });
    expect(other.forms).toHaveLength(1);
    expect(runs).toEqual(['a.txt', 'a.txt']);
  });

  it('denies, saying why, when the client cannot ask its user', async () => {
    const setup = serve([remove], 'auto');
    const client = await connect(era, setup);
    const result = await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(result).toMatchObject({
      isError: true,
      _meta: { 'dev.hintgate/status': 'denied', 'dev.hintgate/code': 'denied' },
    });
    expect(JSON.stringify(result.content)).toContain('cannot ask its user');
    expect(JSON.stringify(result.content)).not.toContain('the user denied it');
    expect(runs).toEqual([]);
  });
});

describe('input_required on the 2026-07-28 era', () => {
  it('asks again when the retry changes the arguments that were approved', async () => {
    const runs: string[] = [];
    const remove = defineTool({
      name: 'remove',
      description: 'Deletes a file.',
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }) => {
        runs.push(path);
        return 'removed';
      },
    });
    const setup = serve([remove], 'auto');
    const client = await connect('modern', setup, {});
    await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    await client.client.callTool({ name: 'remove', arguments: { path: 'b.txt' } });
    expect(runs).toEqual(['a.txt', 'b.txt']);
    // One form per call: an approval of a.txt did not carry over to b.txt.
    expect(client.forms.map((form) => form.message.includes('b.txt'))).toEqual([false, true]);
  });
});

describe('the audit of an approval asked through input_required', () => {
  it('records the first round as pending, not as a denial by the user, then the grant and the run', async () => {
    const remove = defineTool({
      name: 'remove',
      description: 'Deletes a file.',
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      inputSchema: z.object({ path: z.string() }),
      execute: () => 'removed',
    });
    const audit = createMemoryAuditSink();
    const runtime = createRuntime({ tools: [remove], mode: 'auto', auditSinks: [audit] });
    const toolServer = createMcpToolServer({ runtime });
    const handler = createMcpHttpHandler({ toolServer });
    cleanups.push(async () => {
      await handler.close();
      await toolServer.close();
      await runtime.close();
    });
    const client = await connect('modern', { toolServer, handler }, {});
    const result = await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(result.isError ?? false).toBe(false);

    const denials = audit.events.filter((event) => event.type === 'approval.denied');
    expect(denials.map((event) => event.reason)).toEqual([
      expect.stringMatching(/^approval pending: asked from the MCP client through input_required/),
    ]);
    expect(JSON.stringify(audit.events)).not.toContain('the user denied it');
    expect(audit.events.some((event) => event.type === 'approval.granted')).toBe(true);
    expect(audit.events.some((event) => event.type === 'call.succeeded')).toBe(true);
  });
});

describe.each(ERAS)('tool list changes on the %s era', (era) => {
  it('notifies the client when the registry changes and when the mode hides tools', async () => {
    const writer = defineTool({
      name: 'writer',
      description: 'Writes.',
      annotations: WRITE,
      inputSchema: z.object({}),
      execute: () => 'ok',
    });
    const setup = serve([lookup, writer], 'auto');
    const client = await connect(era, setup);
    await client.client.listTools();

    setup.runtime.registry.configure('lookup', { enabled: false });
    await eventually(() => client.listChanges() === 1);

    setup.toolServer.setMode('plan');
    await eventually(() => client.listChanges() === 2);
    expect((await client.client.listTools()).tools).toEqual([]);

    // A change that leaves the list as it was is not reported.
    setup.runtime.registry.configure('writer', { enabled: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.listChanges()).toBe(2);
  });
});

describe.each(ERAS)('concurrent tools/call requests on the %s era', (era) => {
  /** What the store's tools did, in order: `read <path>` and `wrote <path>`. */
  const done: string[] = [];
  /** A file store whose write takes a while, so that overlap would show. */
  const store = () => {
    done.length = 0;
    const files = new Map<string, string>([
      ['a', 'old a'],
      ['b', 'old b'],
    ]);
    const read = defineTool({
      name: 'read',
      description: 'Reads a file.',
      annotations: READ_ONLY,
      inputSchema: z.object({ path: z.string() }),
      resources: ['file:{path}'],
      execute: ({ path }) => {
        done.push(`read ${path}`);
        return files.get(path) ?? '';
      },
    });
    const write = defineTool({
      name: 'write',
      description: 'Writes a file, slowly.',
      annotations: WRITE,
      inputSchema: z.object({ path: z.string(), text: z.string() }),
      resources: ['file:{path}'],
      execute: async ({ path, text }) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        files.set(path, text);
        done.push(`wrote ${path}`);
        return 'written';
      },
    });
    return [read, write];
  };
  const textOf = (result: { content: unknown }) =>
    (result.content as Array<{ text: string }>)[0]?.text;

  it('runs [WRITE(a), READ(a), READ(b)] from one client: READ(a) waits, READ(b) does not', async () => {
    const setup = serve(store(), 'auto');
    const { client } = await connect(era, setup);
    const started = performance.now();
    const finished: Record<string, number> = {};
    const timed = (name: string, call: Promise<{ content: unknown }>) =>
      call.then((result) => {
        finished[name] = performance.now() - started;
        return textOf(result);
      });
    const [write, readA, readB] = await Promise.all([
      timed('write', client.callTool({ name: 'write', arguments: { path: 'a', text: 'new a' } })),
      timed('readA', client.callTool({ name: 'read', arguments: { path: 'a' } })),
      timed('readB', client.callTool({ name: 'read', arguments: { path: 'b' } })),
    ]);
    expect([write, readA, readB]).toEqual(['written', 'new a', 'old b']);
    // READ(b) conflicts with nothing: it is answered while the write is still running.
    expect(finished.readB).toBeLessThan(finished.write ?? 0);
    // READ(a) runs only once the write has ended (its answer may then overtake the write's:
    // two requests' answers keep no order).
    expect(done).toEqual(['read b', 'wrote a', 'read a']);
  });

  it('orders a read from a second client after a write another client sent first', async () => {
    const setup = serve(store(), 'auto');
    const writer = await connect(era, setup);
    const reader = await connect(era, setup);
    const write = writer.client.callTool({
      name: 'write',
      arguments: { path: 'a', text: 'new a' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [readA, readB] = await Promise.all([
      reader.client.callTool({ name: 'read', arguments: { path: 'a' } }),
      reader.client.callTool({ name: 'read', arguments: { path: 'b' } }),
    ]);
    await write;
    expect(textOf(readA)).toBe('new a');
    expect(textOf(readB)).toBe('old b');
    // READ(b) conflicts with nothing: it never waits longer than READ(a), held by the write.
    expect(readB._meta?.['dev.hintgate/queuedMs']).toBeLessThanOrEqual(
      readA._meta?.['dev.hintgate/queuedMs'] as number,
    );
  });
});

describe('createMcpToolServer options', () => {
  it('rejects what would fail later with a message that says what to pass', () => {
    const runtime = createRuntime({ tools: [] });
    cleanups.push(() => runtime.close());
    const bad: Array<[unknown, string]> = [
      [{}, 'needs { runtime }'],
      [{ runtime, name: '' }, 'name must be a non-empty string'],
      [{ runtime, requestStateKey: 'too short' }, 'at least 32 bytes'],
      [{ runtime, approvalRoundTtlSeconds: 0 }, 'positive whole number'],
      [{ runtime, onError: 'log' }, 'onError must be a function'],
      [{ runtime, scopes: 'admin' }, 'scopes must be a list'],
    ];
    for (const [options, message] of bad) {
      expect(() => createMcpToolServer(options as never), message).toThrow(message);
    }
  });
});
