import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { nodeScriptArgs } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import { startRateLimitedHttpServer } from './fixtures/rate-limited-http-server.js';
import {
  auditEvents,
  REPO_ROOT,
  resultText,
  tempDir,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// An upstream that says it is rate limited (HTTP 429 with Retry-After, or a tool error that
// says so) makes the gateway's later calls to it wait for its window, within each call's
// timeout, instead of failing one by one; the window is audited.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Result = { content: unknown[]; isError?: boolean };

async function gatewayOver(servers: Record<string, unknown>) {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeConfig(dir, { mode: 'yolo', servers });
  await pinGateway({ config });
  const notices: string[] = [];
  const gateway = await createGateway({
    config,
    onNotice: (line) => notices.push(line),
    onError: () => {},
    watchPins: false,
  });
  cleanups.push(() => gateway.close());
  const client = await connectInMemory(gateway.toolServer);
  cleanups.push(() => client.close());
  const call = async (name: string) =>
    (await client.client.callTool({ name, arguments: {} })) as Result;
  return { call, notices, auditPath: config.audit.path };
}

describe('an upstream answering HTTP 429 with Retry-After', () => {
  it('ends that call rate_limited, holds back a call whose timeout ends first, and lets a later call through after the window', async () => {
    const upstream = await startRateLimitedHttpServer({ limited: 1, retryAfterSeconds: 2 });
    cleanups.push(() => upstream.close());
    const { call, notices, auditPath } = await gatewayOver({
      api: {
        url: upstream.url,
        era: 'legacy',
        tools: { lookup: { timeoutMs: 500 } },
      },
    });

    const first = await call('fetch_page');
    expect(first.isError).toBe(true);
    expect(JSON.stringify(first)).toContain('rate_limited');
    expect(resultText(first)).toMatch(/answered HTTP 429 Too Many Requests .*retry after \d{4}-/);

    // Its 500 ms timeout ends before the 2 s window: refused at once, never sent.
    const short = await call('lookup');
    expect(short.isError).toBe(true);
    expect(JSON.stringify(short)).toContain('rate_limited');
    expect(resultText(short)).toMatch(/rate limited until .*past this call's timeout.*Retry after/);
    expect(upstream.calls.map((c) => c.name)).toEqual(['fetch_page']);

    // The default timeout (60 s) outlasts the window: the call waits for it, then runs.
    const later = await call('fetch_page');
    expect(later.isError ?? false).toBe(false);
    expect(resultText(later)).toBe('fetch_page done');

    const events = (await auditEvents(auditPath)).filter(
      (event) => event.type === 'upstream.rate_limited',
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ origin: 'api', retryAfterMs: 2000 });
    const until = Date.parse(String(events[0]?.until));
    const [limitedCall, passed] = upstream.calls;
    expect(until - (limitedCall?.at ?? 0)).toBeGreaterThanOrEqual(1_900);
    // Not sent before the window ended.
    expect(passed?.at ?? 0).toBeGreaterThanOrEqual(until - 5);
    expect(notices).toContainEqual(
      expect.stringMatching(/server "api" answered HTTP 429; its calls wait until/),
    );
  }, 30_000);
});

describe('an upstream answering a tool error that says it is rate limited', () => {
  it('makes the next calls to that server wait the window it names, or end rate_limited when their timeout comes first', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/raw-json-rpc-server.ts', import.meta.url));
    const { call, auditPath } = await gatewayOver({
      records: {
        command: process.execPath,
        args: nodeScriptArgs(fixture),
        cwd: REPO_ROOT,
        tools: { search: { timeoutMs: 200 } },
      },
    });
    // busy's first answer: "Rate limit exceeded (429): too many requests; retry after 1 second."
    const busy = await call('busy');
    expect(busy.isError).toBe(true);
    expect(resultText(busy)).toMatch(/Rate limit exceeded/);
    const short = await call('search');
    expect(short.isError).toBe(true);
    expect(JSON.stringify(short)).toContain('rate_limited');
    expect(resultText(short)).toMatch(/MCP server "records" said it is rate limited until/);
    const waited = await call('busy');
    expect(waited.isError ?? false).toBe(false);
    expect(resultText(waited)).toBe('busy done');
    const events = (await auditEvents(auditPath)).filter(
      (event) => event.type === 'upstream.rate_limited',
    );
    expect(events).toEqual([expect.objectContaining({ origin: 'records', retryAfterMs: 1000 })]);
  }, 30_000);
});
