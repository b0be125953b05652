import { request as httpRequest } from 'node:http';
import { connect as connectSocket } from 'node:net';
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { READ_ONLY } from '../../tool/presets.js';
import { createMcpHttpHandler } from './create-mcp-http-handler.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import { hostHeaderValues, isLocalhostHeader } from './host-header.test-helpers.js';
import { allowedHostnames } from './http-security.js';
import { ERAS, initializeRequest } from './mcp-clients.test-helpers.js';
import { type McpHttpServer, startMcpHttpServer } from './start-mcp-http-server.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  annotations: READ_ONLY,
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const start = async (token?: string): Promise<McpHttpServer> => {
  const runtime = createRuntime({ tools: [echo] });
  const toolServer = createMcpToolServer({ runtime });
  const server = await startMcpHttpServer({
    toolServer,
    port: 0,
    ...(token === undefined ? {} : { token }),
  });
  cleanups.push(async () => {
    await server.close();
    await toolServer.close();
    await runtime.close();
  });
  return server;
};

const INITIALIZE = JSON.stringify(initializeRequest());

/** A raw POST with exactly these headers (fetch would not let a test set Host). */
const post = (
  url: string,
  headers: Record<string, string>,
  body = INITIALIZE,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          // An SSE answer stays open; the first event is all a test needs.
          if (text.includes('\n\n')) res.destroy();
        });
        res.on('close', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const connect = async (url: string, era: (typeof ERAS)[number], token?: string) => {
  const client = new Client(
    { name: 'http-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      ...(token === undefined
        ? {}
        : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    }),
  );
  cleanups.push(() => client.close());
  return client;
};

describe('startMcpHttpServer', () => {
  it('binds 127.0.0.1 on the asked port and serves /mcp on both eras', async () => {
    const server = await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    for (const era of ERAS) {
      const client = await connect(server.url, era);
      expect(client.getProtocolEra()).toBe(era);
      const result = await client.callTool({ name: 'echo', arguments: { text: `hi ${era}` } });
      expect(result.content).toEqual([{ type: 'text', text: `hi ${era}` }]);
    }
  });

  it('refuses a foreign Host or Origin (DNS rebinding) with 403 and accepts localhost', async () => {
    const server = await start();
    const port = String(server.port);
    expect((await post(server.url, { host: 'evil.example' })).status).toBe(403);
    expect((await post(server.url, { host: `evil.example:${port}` })).status).toBe(403);
    expect(
      (await post(server.url, { host: `localhost:${port}`, origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect((await post(server.url, { host: `localhost:${port}` })).status).toBe(200);
    expect(
      (await post(server.url, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` }))
        .status,
    ).toBe(200);
    expect((await post(server.url, { host: `[::1]:${port}` })).status).toBe(200);
  });

  it('answers 404 off the endpoint and 400/404 for missing or unknown 2025 sessions', async () => {
    const server = await start();
    const base = server.url.replace(/\/mcp$/, '');
    expect((await fetch(`${base}/other`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(server.url, { headers: { accept: 'text/event-stream' } })).status).toBe(
      400,
    );
    const unknown = await fetch(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'no-such-session' },
    });
    expect(unknown.status).toBe(404);
  });

  it('requires the bearer token when one is set', async () => {
    const token = 'correct-horse-battery-staple';
    const server = await start(token);
    const missing = await post(server.url, {});
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer /);
    expect((await post(server.url, { authorization: 'Bearer wrong-token-value' })).status).toBe(
      401,
    );
    expect((await post(server.url, { authorization: `Basic ${token}` })).status).toBe(401);
    expect((await post(server.url, { authorization: `Bearer ${token}` })).status).toBe(200);

    for (const era of ERAS) {
      await expect(connect(server.url, era)).rejects.toBeInstanceOf(SdkHttpError);
      const client = await connect(server.url, era, token);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'authorized' } });
      expect(result.content).toEqual([{ type: 'text', text: 'authorized' }]);
    }
  });
});

describe('allowedHostnames', () => {
  it('allows only the localhost names for a loopback address', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      expect(allowedHostnames(host).sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    }
  });

  it('adds another address or name, bracketing IPv6', () => {
    expect(allowedHostnames('box.lan')).toContain('box.lan');
    expect(allowedHostnames('fd00::5')).toContain('[fd00::5]');
    expect(allowedHostnames('0.0.0.0')).toContain('127.0.0.1');
    expect(allowedHostnames('0.0.0.0')).not.toContain('0.0.0.0');
  });
});

describe('startMcpHttpServer / createMcpHttpHandler options', () => {
  it('reject malformed options with what to fix instead of a TypeError', async () => {
    await expect(startMcpHttpServer(undefined as never)).rejects.toMatchObject({
      code: 'invalid_option',
    });
    await expect(startMcpHttpServer({ port: 0 } as never)).rejects.toThrow(
      /toolServer must come from createMcpToolServer/,
    );
    expect(() => createMcpHttpHandler(undefined as never)).toThrow(/expects \{ toolServer \}/);
    expect(() => createMcpHttpHandler({ toolServer: {} } as never)).toThrow(
      /expects \{ toolServer \}/,
    );
  });
});

/** Sends raw bytes to the server and resolves to the status and body of the answer. */
const raw = (port: number, text: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const socket = connectSocket(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
    socket.end(Buffer.from(text, 'utf8'));
  });

/** A raw initialize POST with these header lines. */
const rawPost = (port: number, headerLines: string[], target = '/mcp') =>
  raw(
    port,
    [
      `POST ${target} HTTP/1.1`,
      ...headerLines,
      'content-type: application/json',
      'accept: application/json, text/event-stream',
      `content-length: ${Buffer.byteLength(INITIALIZE)}`,
      'connection: close',
      '',
      INITIALIZE,
    ].join('\r\n'),
  );

describe('startMcpHttpServer Host and Origin parsing', () => {
  it('answers a malformed Host with 400 saying what is wrong, never 500', async () => {
    const server = await start();
    const port = server.port;
    const cases: Array<[string, RegExp]> = [
      ['evil.com@localhost', /may not carry userinfo/],
      [`evil.com@localhost:${port}`, /may not carry userinfo/],
      [`user:pw@localhost:${port}`, /is not a number/],
      [`localhost/mcp:${port}`, /may not appear in a host name/],
      [`[::1:${port}`, /is not closed/],
      [`localhost:${port}:1`, /is not a number/],
      ['localhost:70000', /above 65535/],
      ['', /missing or empty/],
      ['::1', /must be in brackets/],
    ];
    for (const [host, reason] of cases) {
      const { status, body } = await rawPost(port, [`Host: ${host}`]);
      expect(status, host).toBe(400);
      expect(body, host).toMatch(reason);
    }
    const twice = await rawPost(port, [`Host: localhost:${port}`, `Host: evil.com`]);
    expect(twice.status).toBe(400);
    expect(twice.body).toContain('more than one Host header');
  });

  it('answers a malformed Origin with 400 and a foreign or opaque one with 403', async () => {
    const server = await start();
    const host = `Host: localhost:${server.port}`;
    const origin = async (value: string) => rawPost(server.port, [host, `Origin: ${value}`]);
    for (const value of [
      `http://evil.com@localhost:${server.port}`,
      `http://localhost:${server.port}/`,
      'localhost',
      'http://',
      '://localhost',
    ]) {
      const { status, body } = await origin(value);
      expect(status, value).toBe(400);
      expect(body, value).toContain('is not scheme://host[:port]');
    }
    expect((await origin('null')).status).toBe(403);
    expect((await origin('https://evil.example')).status).toBe(403);
    expect((await origin(`http://localhost:${server.port} https://evil.example`)).status).toBe(403);
    expect((await origin(`http://localhost:${server.port}`)).status).toBe(200);
    const twice = await rawPost(server.port, [host, 'Origin: http://localhost', 'Origin: null']);
    expect(twice.status).toBe(400);
  });

  it('answers a request target that is not a path with 400, and //x with 404', async () => {
    const server = await start();
    const host = `Host: localhost:${server.port}`;
    for (const target of [`http://evil.com@localhost:${server.port}/mcp`, 'http://[', '*']) {
      const { status, body } = await rawPost(server.port, [host], target);
      expect(status, target).toBe(400);
      expect(body, target).toContain('is not a path');
    }
    expect((await rawPost(server.port, [host], '//[')).status).toBe(404);
    expect((await rawPost(server.port, [host], '/mcp?x=1')).status).toBe(200);
  });

  it('never answers 500 to a random Host, nor lets one through that is not localhost (fuzzed)', async () => {
    const server = await start('fuzz-token-value');
    await fc.assert(
      fc.asyncProperty(hostHeaderValues({ printable: true }), async (value) => {
        const { status } = await rawPost(server.port, [`Host: ${value}`]);
        // Past the Host check the request lacks the token: 401.
        const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
        if (isLocalhostHeader(trimmed)) expect(status).toBe(401);
        else expect([400, 403]).toContain(status);
      }),
      { numRuns: 300 },
    );
  });
});
