import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpToolServer } from '../mcp/server/create-mcp-tool-server.js';
import { startMcpHttpServer } from '../mcp/server/start-mcp-http-server.js';
import { createRegistry } from '../registry/index.js';
import { createRuntime } from '../runtime/index.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createGateway } from './create-gateway.js';
import { tempDir, until, writeConfig } from './gateway.test-helpers.js';

// /healthz and /readyz of the gateway's HTTP endpoint, over a real upstream HTTP MCP server
// that is down when the gateway starts and comes up later.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A port nothing listens on now. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A real Streamable HTTP MCP server with one tool, on `port`. */
async function startUpstream(port: number) {
  const registry = createRegistry();
  registry.addOrigin({
    name: 'local',
    layer: 'bundled',
    tools: [
      defineTool({
        name: 'lookup',
        description: 'Reads.',
        annotations: READ_ONLY,
        inputSchema: z.object({}),
        execute: () => 'found',
      }),
    ],
  });
  const runtime = createRuntime({ registry, mode: 'yolo' });
  const toolServer = createMcpToolServer({ runtime });
  const http = await startMcpHttpServer({ toolServer, port });
  return async () => {
    await http.close();
    await toolServer.close();
    await runtime.close();
  };
}

const get = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.text(), headers: response.headers };
};

describe('gateway /healthz and /readyz', () => {
  it('is live at once, ready only once its upstream is connected, and says nothing of the configuration', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const port = await freePort();
    const upstreamUrl = `http://127.0.0.1:${port}/mcp`;
    const config = await writeConfig(dir, { servers: { records: { url: upstreamUrl } } });
    const gateway = await createGateway({
      config,
      onNotice: () => {},
      onError: () => {},
      watchPins: false,
      reconnect: { initialDelayMs: 50, maxDelayMs: 250 },
    });
    cleanups.push(() => gateway.close());
    const token = 'a-token-for-this-test';
    const http = await startMcpHttpServer({
      toolServer: gateway.toolServer,
      port: 0,
      token,
      readiness: gateway.readiness,
    });
    cleanups.push(() => http.close());
    const base = http.url.replace(/\/mcp$/, '');

    // No token, any Host: a load balancer or a container healthcheck asks this way.
    const live = await get(`${base}/healthz`, { headers: { Host: 'gateway-a:8080' } });
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toEqual({ status: 'ok' });
    expect(live.headers.get('cache-control')).toBe('no-store');

    const down = await get(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: 'not ready', failing: ['upstreams'] });
    expect(down.body).not.toContain(String(port));
    expect(down.body).not.toContain('records');

    cleanups.push(await startUpstream(port));
    await until(async () => (await get(`${base}/readyz`)).status === 200, 20_000);
    expect(JSON.parse((await get(`${base}/readyz`)).body)).toEqual({ status: 'ready' });
    expect((await get(`${base}/readyz`, { method: 'HEAD' })).status).toBe(200);

    const post = await get(`${base}/readyz`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    // The MCP endpoint still wants its token.
    expect((await get(http.url, { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it('fails /readyz for a check that throws or never answers, within the time limit', async () => {
    const { toolServer, close } = await (async () => {
      const runtime = createRuntime({ registry: createRegistry(), mode: 'yolo' });
      const server = createMcpToolServer({ runtime });
      return {
        toolServer: server,
        close: async () => {
          await server.close();
          await runtime.close();
        },
      };
    })();
    cleanups.push(close);
    const http = await startMcpHttpServer({
      toolServer,
      port: 0,
      readiness: [
        { name: 'fine', check: () => true },
        {
          name: 'broken',
          check: () => {
            throw new Error('boom');
          },
        },
        { name: 'stuck', check: () => new Promise<boolean>(() => {}) },
      ],
    });
    cleanups.push(() => http.close());
    const ready = await get(http.url.replace(/\/mcp$/, '/readyz'));
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'not ready', failing: ['broken', 'stuck'] });
    await expect(
      startMcpHttpServer({
        toolServer,
        port: 0,
        readiness: [{ name: 'Bad Name', check: () => true }],
      }),
    ).rejects.toThrow(/readiness: each check must be/);
  });
});
