import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { DESTRUCTIVE } from '../../tool/presets.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from './create-mcp-http-handler.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import { APPROVAL_INPUT_KEY } from './input-required-channel.js';
import { eventually } from './mcp-clients.test-helpers.js';

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

/** Opens a 2025 session (as `client`) and returns its id. */
const open = async (handler: ReturnType<typeof handlerWith>, client?: string): Promise<string> => {
  const response = await handler.fetch(initialize(VALID), client === undefined ? {} : { client });
  expect(response.status).toBe(200);
  await response.body?.cancel();
  const id = response.headers.get('mcp-session-id');
  if (id === null) throw new Error('no session id');
  return id;
};

/** Sends `notifications/initialized` on a session and resolves to the status. */
const status = async (handler: ReturnType<typeof handlerWith>, id: string): Promise<number> => {
  const response = await handler.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  await response.body?.cancel();
  return response.status;
};

/** Completes the handshake of a session. */
const initialized = async (handler: ReturnType<typeof handlerWith>, id: string) => {
  expect(await status(handler, id)).toBe(202);
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

  it('makes room in a full table for a new client instead of refusing it', async () => {
    const handler = handlerWith({ maxSessions: 2, sessionIdleMs: 60_000 });
    const [a, b] = [await open(handler, 'x'), await open(handler, 'x')];
    await initialized(handler, a);
    await initialized(handler, b);
    const c = await open(handler, 'y');
    expect(handler.sessionCount).toBe(2);
    // x held the most: its least recently used session made the room.
    expect(await status(handler, a)).toBe(404);
    expect(await status(handler, b)).toBe(202);
    expect(await status(handler, c)).toBe(202);
  });

  it('lets a client at its limit evict its own least recently used session', async () => {
    const handler = handlerWith({ maxSessionsPerClient: 2 });
    const [a, b] = [await open(handler, 'x'), await open(handler, 'x')];
    const other = await open(handler, 'y');
    await initialized(handler, b);
    await initialized(handler, a);
    await initialized(handler, other);
    await open(handler, 'x');
    expect(handler.sessionCount).toBe(3);
    expect(await status(handler, b)).toBe(404);
    expect(await status(handler, a)).toBe(202);
    expect(await status(handler, other)).toBe(202);
  });

  it('whoever fills the table evicts its own sessions, never those of a client with fewer', async () => {
    const handler = handlerWith({ maxSessions: 4, maxSessionsPerClient: 4 });
    const victim = await open(handler, 'victim');
    await initialized(handler, victim);
    for (let i = 0; i < 12; i += 1) await initialized(handler, await open(handler, 'filler'));
    expect(handler.sessionCount).toBe(4);
    expect(await status(handler, victim)).toBe(202);
  });

  it('evicts a never-initialized session before one in use, and an idle one before that', async () => {
    const handler = handlerWith({ maxSessions: 2 });
    const used = await open(handler, 'x');
    await initialized(handler, used);
    const fresh = await open(handler, 'x');
    await open(handler, 'y');
    expect(await status(handler, fresh)).toBe(404);
    expect(await status(handler, used)).toBe(202);

    // Idle for sessionIdleMs beats holding the most: light's old session goes, not heavy's.
    const lenient = handlerWith({ maxSessions: 3, sessionIdleMs: 40 });
    const idle = await open(lenient, 'light');
    await initialized(lenient, idle);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const heavy = [await open(lenient, 'heavy'), await open(lenient, 'heavy')];
    for (const id of heavy) await initialized(lenient, id);
    await open(lenient, 'new');
    expect(await status(lenient, idle)).toBe(404);
    expect(await status(lenient, heavy[0] ?? '')).toBe(202);
  });

  it('closes a session that no request follows within 10 s of its initialize by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const handler = handlerWith();
      const abandoned = await open(handler, 'x');
      await vi.advanceTimersByTimeAsync(9_900);
      expect(handler.sessionCount).toBe(1);
      await vi.advanceTimersByTimeAsync(200);
      expect(handler.sessionCount).toBe(0);
      expect(await status(handler, abandoned)).toBe(404);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes a session that no request follows after initialize', async () => {
    const handler = handlerWith({ uninitializedSessionMs: 50 });
    const abandoned = await open(handler, 'x');
    const kept = await open(handler, 'x');
    await initialized(handler, kept);
    await eventually(() => handler.sessionCount === 1, 10_000);
    expect(await status(handler, abandoned)).toBe(404);
    expect(await status(handler, kept)).toBe(202);
  });

  it('refuses bad session limits with what to fix', () => {
    for (const key of ['maxSessions', 'maxSessionsPerClient', 'uninitializedSessionMs'] as const) {
      expect(() => handlerWith({ [key]: 0 })).toThrow(`${key} must be a positive integer.`);
    }
    // A timer waits at most 2^31 - 1 ms: a longer one would fire at once.
    expect(() => handlerWith({ uninitializedSessionMs: 2 ** 31 })).toThrow(
      /uninitializedSessionMs must be at most 2147483647 ms/,
    );
    expect(() => handlerWith({ sessionIdleMs: 2 ** 31 })).not.toThrow();
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
