import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { DESTRUCTIVE } from '../../tool/presets.js';
import { APPROVAL_INPUT_KEY } from './client-approvers.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from './create-mcp-http-handler.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const handlerWith = (options: Omit<McpHttpHandlerOptions, 'toolServer'> = {}) => {
  const runtime = createRuntime({ tools: [] });
  const toolServer = createMcpToolServer({ runtime });
  const handler = createMcpHttpHandler({ toolServer, ...options });
  cleanups.push(async () => {
    await handler.close();
    await toolServer.close();
    await runtime.close();
  });
  return handler;
};

const initialize = (params: Record<string, unknown> | undefined) =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }),
  });

const VALID = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'raw', version: '1.0.0' },
};

/** Opens a 2025 session and returns its id. */
const open = async (handler: ReturnType<typeof handlerWith>): Promise<string> => {
  const response = await handler.fetch(initialize(VALID));
  expect(response.status).toBe(200);
  await response.body?.cancel();
  const id = response.headers.get('mcp-session-id');
  if (id === null) throw new Error('no session id');
  return id;
};

describe('createMcpHttpHandler sessions (2025-11-25)', () => {
  it('opens a session per initialize, keeps none for a failed one, closes on DELETE', async () => {
    const handler = handlerWith();
    const id = await open(handler);
    expect(handler.sessionCount).toBe(1);

    const failed = await handler.fetch(initialize({ capabilities: {} }));
    await failed.body?.cancel();
    expect(handler.sessionCount).toBe(1);

    const deleted = await handler.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': id } }),
    );
    expect(deleted.status).toBe(200);
    expect(handler.sessionCount).toBe(0);
  });

  it('makes room by closing idle sessions, and refuses with 503 when none is idle', async () => {
    const handler = handlerWith({ maxSessions: 2, sessionIdleMs: 60_000 });
    await open(handler);
    await open(handler);
    const refused = await handler.fetch(initialize(VALID));
    expect(refused.status).toBe(503);

    const lenient = handlerWith({ maxSessions: 1, sessionIdleMs: 0 });
    const first = await open(lenient);
    const second = await open(lenient);
    expect(second).not.toBe(first);
    expect(lenient.sessionCount).toBe(1);
  });
});

describe('createMcpHttpHandler malformed bodies', () => {
  it('answers a body that is not JSON with a JSON-RPC parse error, and keeps serving', async () => {
    const handler = handlerWith();
    const response = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc": "2.0", "id": 1, "method": ',
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    await open(handler);
    expect(handler.sessionCount).toBe(1);
  });
});

describe('input_required answers over HTTP (2026-07-28)', () => {
  it('honours an answer once: replaying the same requestState asks again instead of running', async () => {
    const runs: string[] = [];
    const remove = defineTool({
      name: 'remove',
      description: 'Deletes a file.',
      annotations: DESTRUCTIVE,
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }) => {
        runs.push(path);
        return 'removed';
      },
    });
    const runtime = createRuntime({ tools: [remove], mode: 'auto' });
    const toolServer = createMcpToolServer({ runtime });
    const handler = createMcpHttpHandler({ toolServer });
    cleanups.push(async () => {
      await handler.close();
      await toolServer.close();
      await runtime.close();
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };
    const call = async (extra: Record<string, unknown>, id: number) => {
      const response = await handler.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'remove',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'remove', arguments: { path: 'a.txt' }, _meta: meta, ...extra },
          }),
        }),
      );
      const text = await response.text();
      const line = text.startsWith('{')
        ? text
        : (text
            .split('\n')
            .find((l) => l.startsWith('data:'))
            ?.slice(5) ?? '');
      return (JSON.parse(line) as { result: Record<string, unknown> }).result;
    };
    const first = await call({}, 1);
    expect(first.resultType).toBe('input_required');
    const answer = {
      [APPROVAL_INPUT_KEY]: { action: 'accept', content: { decision: 'allow_once' } },
    };
    const retry = { inputResponses: answer, requestState: first.requestState };
    const approved = await call(retry, 2);
    expect(approved._meta).toMatchObject({ 'dev.hintgate/status': 'ok' });
    const replayed = await call(retry, 3);
    expect(replayed.resultType).toBe('input_required');
    expect(runs).toEqual(['a.txt']);
  });
});
