import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryAuditSink, type MemoryAuditSink } from '../../audit/memory-audit-sink.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { DESTRUCTIVE, READ_ONLY } from '../../tool/presets.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import { ERAS, initializeRequest } from './mcp-clients.test-helpers.js';
import { type McpHttpServer, startMcpHttpServer } from './start-mcp-http-server.js';

// Two callers with their own tokens see and may call only the tools of their scopes.

const listRecords = defineTool({
  name: 'records_list',
  description: 'Lists records.',
  annotations: READ_ONLY,
  scopes: ['records.read'],
  inputSchema: { type: 'object' },
  execute: () => 'three records',
});
const deleteRecord = defineTool({
  name: 'record_delete',
  description: 'Deletes a record.',
  annotations: DESTRUCTIVE,
  scopes: ['records.write'],
  inputSchema: { type: 'object' },
  execute: () => 'deleted',
});
const ping = defineTool({
  name: 'ping',
  description: 'Answers pong.',
  annotations: READ_ONLY,
  inputSchema: { type: 'object' },
  execute: () => 'pong',
});

const READER = 'reader-token-0123456789';
const ADMIN = 'admin-token-9876543210';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  extra: Partial<Parameters<typeof startMcpHttpServer>[0]> = {},
): Promise<{ server: McpHttpServer; audit: MemoryAuditSink }> {
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({
    tools: [listRecords, deleteRecord, ping],
    mode: 'yolo',
    auditSinks: [audit],
  });
  const toolServer = createMcpToolServer({ runtime });
  const server = await startMcpHttpServer({
    toolServer,
    port: 0,
    principals: [
      { name: 'reader', token: READER, scopes: ['records.read'] },
      { name: 'admin', token: ADMIN, scopes: ['records.read', 'records.write'] },
    ],
    ...extra,
  });
  cleanups.push(async () => {
    await server.close();
    await toolServer.close();
    await runtime.close();
  });
  return { server, audit };
}

async function connect(url: string, token: string, era: (typeof ERAS)[number]) {
  const client = new Client(
    { name: 'scoped', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

const textOf = (result: unknown): string =>
  ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '') as string;

describe.each(ERAS)('principals with scopes over HTTP (%s era)', (era) => {
  it('lists and runs for each token only the tools of its scopes', async () => {
    const { server, audit } = await start();
    const reader = await connect(server.url, READER, era);
    const admin = await connect(server.url, ADMIN, era);

    const names = async (client: Client) =>
      (await client.listTools(undefined, { cacheMode: 'bypass' })).tools
        .map((tool) => tool.name)
        .sort();
    expect(await names(reader)).toEqual(['ping', 'records_list']);
    expect(await names(admin)).toEqual(['ping', 'record_delete', 'records_list']);

    expect(textOf(await reader.callTool({ name: 'records_list', arguments: {} }))).toBe(
      'three records',
    );
    const refused = await reader.callTool({ name: 'record_delete', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/record_delete/);
    expect(textOf(await admin.callTool({ name: 'record_delete', arguments: {} }))).toBe('deleted');

    const principals = audit.events
      .filter((event) => event.type === 'call.succeeded')
      .map((event) => (event as { caller?: { principal?: string } }).caller?.principal);
    expect(principals).toEqual(['reader', 'admin']);
    // The tokens are nowhere in the audit trail.
    expect(JSON.stringify(audit.events)).not.toContain(READER);
    expect(JSON.stringify(audit.events)).not.toContain(ADMIN);
  }, 30_000);
});

describe('principals over HTTP', () => {
  it('refuses a request without a known token with 401, and a session of another token with 404', async () => {
    const { server } = await start();
    const none = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-token-at-all' },
      body: '{}',
    });
    expect(none.status).toBe(401);

    const init = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${READER}`,
      },
      body: JSON.stringify(initializeRequest()),
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.body?.cancel();
    expect(session).not.toBe('');
    const hijack = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${ADMIN}`,
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(hijack.status).toBe(404);
  });

  it('answers 429 with Retry-After once a caller spent its request limit, per caller', async () => {
    const { server } = await start({ rateLimit: { max: 2, windowMs: 60_000 } });
    const send = (token: string) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{}',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await send(READER);
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses.every((status) => status !== 429)).toBe(true);
    const limited = await send(READER);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as { error: { message: string } }).error.message).toMatch(
      /Too many requests/,
    );
    // Another caller has its own count.
    const other = await send(ADMIN);
    expect(other.status).not.toBe(429);
    await other.body?.cancel();
  });
});

describe('a bare tools/list without initialize', () => {
  it('gets a JSON-RPC error that says to initialize first or send the 2026 headers', async () => {
    const { server } = await start();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${READER}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { jsonrpc: string; error: { message: string } };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.message).toMatch(/initialize first/);
    expect(body.error.message).toMatch(/MCP-Protocol-Version: 2026-07-28/);
  });
});
