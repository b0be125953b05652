import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { READ_ONLY } from '../../tool/presets.js';
import { FAST_PATHS_ENV } from '../fast-paths.js';
import { NO_APPROVAL_CHANNEL } from './approval-form.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import { connectClient, type ElicitationScript, eventually } from './mcp-clients.test-helpers.js';
import { startMcpHttpServer } from './start-mcp-http-server.js';
import { RESULT_META } from './to-call-tool-result.js';

// The HTTP fast path of tools/call (http-fast-calls.ts) on a real port, against the SDK's
// own path for the same requests: a server started with HINTGATE_FAST_PATHS=off.

const cancelled: string[] = [];
const tools = [
  defineTool({
    name: 'echo',
    description: 'Echoes its text.',
    annotations: READ_ONLY,
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text,
  }),
  defineTool({
    name: 'picture',
    description: 'Returns an image.',
    annotations: READ_ONLY,
    inputSchema: z.object({}),
    execute: () => ({ content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] }),
  }),
  defineTool({
    name: 'wait',
    description: 'Waits until cancelled.',
    annotations: READ_ONLY,
    inputSchema: z.object({}),
    execute: (_args, { signal }) =>
      new Promise<string>((resolve) => {
        signal.addEventListener('abort', () => {
          cancelled.push(String(signal.reason));
          resolve('stopped');
        });
      }),
  }),
  defineTool({
    name: 'count',
    description: 'Reports progress twice, then returns.',
    annotations: READ_ONLY,
    inputSchema: z.object({}),
    execute: (_args, { onProgress }) => {
      onProgress?.({ progress: 1, total: 2 });
      onProgress?.({ progress: 2, total: 2, message: 'done' });
      return 'counted';
    },
  }),
  defineTool({
    name: 'remove',
    description: 'Removes a record.',
    annotations: { readOnlyHint: false, destructiveHint: true },
    inputSchema: z.object({ key: z.string() }),
    execute: ({ key }) => `removed ${key}`,
  }),
];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Content types of the responses to POSTs, in order. */
const start = async (elicitation?: ElicitationScript, fastPaths = 'on') => {
  const runtime = createRuntime({ tools, mode: 'ask' });
  const toolServer = createMcpToolServer({ runtime });
  const before = process.env[FAST_PATHS_ENV];
  process.env[FAST_PATHS_ENV] = fastPaths;
  const server = await startMcpHttpServer({ toolServer, port: 0 }).finally(() => {
    if (before === undefined) delete process.env[FAST_PATHS_ENV];
    else process.env[FAST_PATHS_ENV] = before;
  });
  const contentTypes: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      if (init?.method === 'POST') contentTypes.push(response.headers.get('content-type') ?? '');
      return response;
    },
  });
  const client = await connectClient(transport, 'legacy', elicitation);
  /** Another client of the same server. */
  const another = async (script?: ElicitationScript) => {
    const other = await connectClient(
      new StreamableHTTPClientTransport(new URL(server.url)),
      'legacy',
      script,
    );
    cleanups.push(() => other.close());
    return other;
  };
  cleanups.push(async () => {
    await client.close();
    await server.close();
    await toolServer.close();
    await runtime.close();
  });
  return { ...client, contentTypes, url: server.url, another };
};

/** Posts one JSON-RPC message on a client's session, as a client would. */
const post = (url: string, client: { transport: unknown }, message: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': (client.transport as StreamableHTTPClientTransport).sessionId as string,
    },
    body: JSON.stringify(message),
  });

const withoutTimes = (result: { _meta?: Record<string, unknown> | undefined }) => {
  const { [RESULT_META.queuedMs]: _q, [RESULT_META.runMs]: _r, ...meta } = result._meta ?? {};
  return { ...result, _meta: meta };
};

describe('the HTTP fast path of tools/call (2025-11-25 sessions)', () => {
  it('answers every call as the SDK path answers it, in JSON unless the call sent progress first', async () => {
    const fast = await start();
    const sdk = await start(undefined, 'off');
    const progressed: unknown[][] = [[], []];
    for (const [name, args, meta] of [
      ['echo', { text: 'hi' }, undefined],
      ['picture', {}, undefined],
      ['echo', { text: 3 }, undefined],
      ['missing', {}, undefined],
      ['echo', { text: 'hi' }, { progressToken: 'quiet', 'example.com/trace': 'abc' }],
      ['count', {}, { progressToken: 'count' }],
    ] as const) {
      fast.contentTypes.length = 0;
      const results = await Promise.all(
        [fast, sdk].map((side, index) =>
          side.client.callTool(
            { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
            {
              ...(meta === undefined
                ? {}
                : { onprogress: (p: unknown) => progressed[index]?.push(p) }),
            },
          ),
        ),
      );
      expect(fast.contentTypes).toEqual([
        name === 'count' ? 'text/event-stream' : 'application/json',
      ]);
      // Queue and run times are measured per call; everything else must be the same.
      expect(withoutTimes(results[0] as never)).toEqual(withoutTimes(results[1] as never));
    }
    expect(progressed[0]).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2, message: 'done' },
    ]);
    expect(progressed[0]).toEqual(progressed[1]);
  });

  it('refuses bad params as the SDK path does, running nothing', async () => {
    const fast = await start();
    const sdk = await start(undefined, 'off');
    const answers = async (message: unknown) =>
      Promise.all(
        [fast, sdk].map(async (side) => {
          await side.client.callTool({ name: 'echo', arguments: { text: 'open the session' } });
          const response = await post(side.url, side.client, message);
          const text = await response.text();
          // The SDK's path answers on an event stream; the fast path in JSON.
          const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
          return JSON.parse(data ?? 'null') as { error?: { code: number; message: string } };
        }),
      );
    for (const params of [
      { name: 7 },
      { name: 'echo', arguments: 'text' },
      { name: 'echo', arguments: {}, _meta: { progressToken: 1.5 } },
    ]) {
      const [fastAnswer, sdkAnswer] = await answers({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params,
      });
      expect(fastAnswer?.error?.code).toBeLessThan(-32_000);
      expect(fastAnswer, JSON.stringify([fastAnswer, sdkAnswer])).toEqual(sdkAnswer);
    }
    expect(cancelled).toEqual([]);
  });

  it('answers many calls at once, each with its own result', async () => {
    const { client } = await start();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.callTool({ name: 'echo', arguments: { text: `n${i}` } }),
      ),
    );
    expect(results.map((result) => (result.content as { text: string }[])[0]?.text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `n${i}`),
    );
  });

  it("asks for approval on the call's own response stream and runs the call once allowed", async () => {
    const { client, forms, contentTypes } = await start({});
    contentTypes.length = 0;
    const result = await client.callTool({ name: 'remove', arguments: { key: 'a' } });
    expect(forms).toHaveLength(1);
    expect(forms[0]?.message).toContain('remove');
    expect(contentTypes[0]).toBe('text/event-stream');
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'removed a' }]);
  });

  it('denies when the person declines, and without asking a client that cannot show a form', async () => {
    const declining = await start({ answer: () => ({ action: 'decline' }) });
    const declined = await declining.client.callTool({ name: 'remove', arguments: { key: 'a' } });
    expect(declined.isError).toBe(true);
    expect(JSON.stringify(declined.content)).toContain('declined');

    const formless = await start();
    const denied = await formless.client.callTool({ name: 'remove', arguments: { key: 'a' } });
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(denied.content)).toContain(NO_APPROVAL_CHANNEL.slice(0, 40));
    expect(formless.forms).toHaveLength(0);
  });

  it('stops a call when the client cancels it, and sends no result', async () => {
    const { client } = await start();
    cancelled.length = 0;
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('the user pressed stop'));
    await expect(call).rejects.toThrow();
    await eventually(() => cancelled.length === 1);
    expect(cancelled[0]).toContain('the user pressed stop');
  });

  it("takes an approval's answer only from the session that was asked", async () => {
    let askedId: string | number | undefined;
    let answer: (result: { action: 'accept' | 'decline' }) => void = () => {};
    const asked = await start({});
    asked.client.setRequestHandler('elicitation/create', (_request, ctx) => {
      askedId = ctx.mcpReq.id;
      return new Promise((resolve) => {
        answer = resolve;
      });
    });
    const other = await asked.another();
    await other.client.callTool({ name: 'echo', arguments: { text: 'open' } });
    const call = asked.client.callTool({ name: 'remove', arguments: { key: 'prod' } });
    await eventually(() => askedId !== undefined);
    const otherSession = (other.client.transport as StreamableHTTPClientTransport).sessionId;
    // Another client of the same server posts an answer to the approval asked of the first.
    const forged = await fetch(asked.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': otherSession as string,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: askedId,
        result: { action: 'accept', content: { decision: 'allow_once' } },
      }),
    });
    await forged.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer({ action: 'decline' });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('declined');
  });

  it('ends the calls of a session that is closed', async () => {
    const { client } = await start();
    cancelled.length = 0;
    const call = client.callTool({ name: 'wait', arguments: {} }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await eventually(() => cancelled.length === 1);
    expect(cancelled[0]).toContain('session was closed');
    await call;
  });

  it('leaves a call that names an unsupported protocol revision to the SDK, which refuses it', async () => {
    const { client, url } = await start();
    await client.callTool({ name: 'echo', arguments: { text: 'open the session' } });
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId as string;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '1999-01-01',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'x' } },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('1999-01-01');
  });

  it('answers a body that is not JSON with a parse error', async () => {
    const { client, url } = await start();
    await client.callTool({ name: 'echo', arguments: { text: 'open the session' } });
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId as string;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });
});
