// Three real gateway processes on one real Redis, in front of one real upstream MCP server
// (Streamable HTTP, in this process, so that it can count what reaches it).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type HttpServeProcess, startHttpGateway } from '../cli/serve-process.test-helpers.js';
import {
  createMcpToolServer,
  type McpHttpServer,
  startMcpHttpServer,
} from '../mcp/server/index.js';
import { APPROVAL_INPUT_KEY } from '../mcp/server/input-required-channel.js';
import { createRuntime, type Runtime } from '../runtime/index.js';
import { type RedisServer, startRedisServer } from '../state/redis-server.test-helpers.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE, READ_ONLY } from '../tool/presets.js';

let redis: RedisServer;
let upstreamRuntime: Runtime;
let upstream: McpHttpServer;
let dir: string;
const gateways: HttpServeProcess[] = [];
let searches = 0;
let inFlight = 0;
let mostInFlight = 0;
const removed = new Map<string, number>();
const waiting: (() => void)[] = [];
let holdQueries = false;

const tools = [
  defineTool({
    name: 'search',
    description: 'Searches.',
    inputSchema: z.object({ q: z.string() }),
    annotations: READ_ONLY,
    execute: () => {
      searches += 1;
      return 'found';
    },
  }),
  defineTool({
    name: 'query',
    description: 'Runs a query for a while.',
    inputSchema: z.object({ ms: z.number() }),
    annotations: READ_ONLY,
    execute: async ({ ms }, { signal }) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        if (holdQueries) await new Promise<void>((resolve) => waiting.push(resolve));
        else await delay(ms, undefined, { signal }).catch(() => {});
        return 'done';
      } finally {
        inFlight -= 1;
      }
    },
  }),
  defineTool({
    name: 'remove',
    description: 'Removes an item.',
    inputSchema: z.object({ item: z.string() }),
    annotations: DESTRUCTIVE,
    execute: ({ item }) => {
      removed.set(item, (removed.get(item) ?? 0) + 1);
      return 'removed';
    },
  }),
];

const KEY = randomBytes(32).toString('hex');

beforeAll(async () => {
  redis = await startRedisServer();
  dir = await mkdtemp(join(tmpdir(), 'hintgate-replicas-'));
  upstreamRuntime = createRuntime({ tools, mode: 'yolo' });
  upstream = await startMcpHttpServer({
    toolServer: createMcpToolServer({ runtime: upstreamRuntime }),
    host: '127.0.0.1',
    port: 0,
  });
  const config = [
    'servers:',
    '  up:',
    `    url: ${upstream.url}`,
    '    trusted: true',
    '    concurrency: 2',
    '    tools:',
    '      search:',
    '        rateLimit: { max: 5, windowMs: 60000, maxWaitMs: 0 }',
    // The same server with a quota across its tools (servers.X.rateLimit).
    '  quota:',
    `    url: ${upstream.url}`,
    '    trusted: true',
    '    rateLimit: { max: 4, windowMs: 60000, maxWaitMs: 0 }',
    // The same server again without limits: its calls need no shared state.
    '  plain:',
    `    url: ${upstream.url}`,
    '    trusted: true',
    'mode: ask',
    'pin: { newTools: allow }',
    // Leases of 3 s (renewed every second): a killed replica's slots free up within 3 s.
    `state: { url: "${redis.url}", keyPrefix: "replicas:", keyEnv: TEST_SEAL_KEY, leaseMs: 3000 }`,
    '',
  ].join('\n');
  const started = await Promise.all(
    ['a', 'b', 'c'].map(async (name) => {
      await mkdir(join(dir, name));
      const file = join(dir, name, 'hintgate.yaml');
      await writeFile(file, config);
      return startHttpGateway(['--config', file], {
        env: { ...process.env, TEST_SEAL_KEY: KEY },
        timeoutMs: 60_000,
      });
    }),
  );
  gateways.push(...started);
}, 300_000);

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop('SIGKILL')));
  await upstream?.close();
  await upstreamRuntime?.close();
  await redis?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}, 60_000);

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
let nextId = 1;

/** One 2026-07-28 tools/call to a gateway; the JSON-RPC response's result or error. */
const call = async (
  gateway: HttpServeProcess | undefined,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> => {
  if (gateway === undefined) throw new Error('no such gateway');
  const id = nextId++;
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: META, ...extra },
    }),
  });
  const text = await response.text();
  const line = text.startsWith('{')
    ? text
    : (text
        .split('\n')
        .find((l) => l.startsWith('data:'))
        ?.slice(5) ?? '');
  const parsed = JSON.parse(line) as { result?: Record<string, unknown>; error?: unknown };
  return parsed.result ?? { error: parsed.error };
};

const status = (result: Record<string, unknown>): unknown => {
  const meta = result._meta as Record<string, unknown> | undefined;
  return result.resultType === 'input_required'
    ? 'input_required'
    : (meta?.['dev.hintgate/code'] ?? meta?.['dev.hintgate/status'] ?? result);
};

const answer = (decision: string) => ({
  [APPROVAL_INPUT_KEY]: { action: 'accept', content: { decision } },
});

const a = () => gateways[0];
const b = () => gateways[1];
const c = () => gateways[2];

describe('three gateway replicas on one Redis', () => {
  it('spend one rate limit: exactly 5 of 12 calls across the three run', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(gateways[i % 3], 'up__search', { q: `q${i}` })),
    );
    const statuses = results.map(status);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(5);
    expect(statuses.filter((s) => s === 'rate_limited')).toHaveLength(7);
    expect(searches).toBe(5);
  });

  it("spend one server quota across the server's tools and the three replicas", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? call(gateways[i % 3], 'quota__search', { q: `s${i}` })
          : call(gateways[i % 3], 'quota__query', { ms: 1 }),
      ),
    );
    const statuses = results.map(status);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(4);
    expect(statuses.filter((s) => s === 'rate_limited')).toHaveLength(6);
  });

  it('never run more than the concurrency cap of 2 at once across replicas', async () => {
    mostInFlight = 0;
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) => call(gateways[i % 3], 'up__query', { ms: 150 })),
    );
    expect(results.map(status)).toEqual(Array(9).fill('ok'));
    expect(mostInFlight).toBe(2);
  });

  it('honour "always allow" given on one replica on the others', async () => {
    const first = await call(a(), 'up__remove', { item: 'always' });
    expect(status(first)).toBe('input_required');
    const approved = await call(
      a(),
      'up__remove',
      { item: 'always' },
      { inputResponses: answer('allow_always'), requestState: first.requestState },
    );
    expect(status(approved)).toBe('ok');
    expect(status(await call(b(), 'up__remove', { item: 'always' }))).toBe('ok');
    expect(status(await call(c(), 'up__remove', { item: 'always' }))).toBe('ok');
    expect(removed.get('always')).toBe(3);
  });

  it('complete an approval round started on A on B once, and refuse replays and tampering', async () => {
    // Another server's remove: the "always" above was given for up's.
    const first = await call(a(), 'plain__remove', { item: 'round' });
    expect(status(first)).toBe('input_required');
    const retry = { inputResponses: answer('allow_once'), requestState: first.requestState };
    expect(status(await call(b(), 'plain__remove', { item: 'round' }, retry))).toBe('ok');
    expect(removed.get('round')).toBe(1);
    // Replayed to the same replica or another: asked again, not run.
    expect(status(await call(c(), 'plain__remove', { item: 'round' }, retry))).toBe(
      'input_required',
    );
    expect(status(await call(b(), 'plain__remove', { item: 'round' }, retry))).toBe(
      'input_required',
    );
    expect(removed.get('round')).toBe(1);

    const other = await call(a(), 'plain__remove', { item: 'tampered' });
    const state = String(other.requestState);
    const flipped = `${state.slice(0, 20)}${state[20] === 'A' ? 'B' : 'A'}${state.slice(21)}`;
    const tampered = await call(
      b(),
      'plain__remove',
      { item: 'tampered' },
      { inputResponses: answer('allow_once'), requestState: flipped },
    );
    expect(status(tampered)).not.toBe('ok');
    expect(removed.get('tampered')).toBeUndefined();
  });

  it('free the slots of a replica killed while it holds them, within the lease', async () => {
    holdQueries = true;
    const held = [call(c(), 'up__query', { ms: 0 }), call(c(), 'up__query', { ms: 0 })];
    for (const pending of held) pending.catch(() => {});
    while (waiting.length < 2) await delay(20);
    // C renewed its leases at most a second before it dies: they run out 2-3 s from here.
    const killedAt = Date.now();
    await c()?.stop('SIGKILL');
    holdQueries = false;
    for (const release of waiting.splice(0)) release();
    // Both slots were C's: A gets one once the lease (state.leaseMs, 3 s) runs out, not
    // before (the slot it waits for is not freed by anything but the lease).
    const freed = await call(a(), 'up__query', { ms: 1 });
    expect(status(freed)).toBe('ok');
    expect(Date.now() - killedAt).toBeGreaterThan(1500);
  }, 40_000);

  it('fail closed while Redis is down, leave calls that need no shared state alone, and recover', async () => {
    await redis.stop();
    const refused = await call(a(), 'up__query', { ms: 1 });
    expect(status(refused)).toBe('shared_state_unavailable');
    expect(JSON.stringify(refused.content)).toMatch(/Shared state at redis:\/\/127\.0\.0\.1/);
    expect(status(await call(b(), 'plain__query', { ms: 1 }))).toBe('ok');
    // The replica says it is not ready, naming the kind of check only.
    const readyz = new URL('/readyz', a()?.url).href;
    const down = await fetch(readyz);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'not ready', failing: ['shared-state'] });
    await redis.start();
    let back: unknown;
    for (let i = 0; i < 100; i += 1) {
      back = status(await call(b(), 'up__query', { ms: 1 }));
      if (back === 'ok') break;
      await delay(200);
    }
    expect(back).toBe('ok');
    let ready = 0;
    for (let i = 0; i < 50 && ready !== 200; i += 1) {
      ready = (await fetch(readyz)).status;
      if (ready !== 200) await delay(100);
    }
    expect(ready).toBe(200);
    let audit = '';
    for (let i = 0; i < 50 && !audit.includes('shared_state_unavailable'); i += 1) {
      audit = await readFile(join(dir, 'a', '.hintgate', 'audit.jsonl'), 'utf8');
      await delay(100);
    }
    expect(audit).toMatch(/"type":"call\.failed".*"code":"shared_state_unavailable"/);
    expect(audit).toMatch(/"type":"state\.changed".*"stateStatus":"unavailable"/);
  }, 40_000);
});
