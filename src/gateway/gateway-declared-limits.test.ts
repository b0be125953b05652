import { fileURLToPath } from 'node:url';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { nodeScriptArgs } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import { REPO_ROOT, resultText, tempDir, writeConfig } from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// A server outside the SDK declares annotations.custom.rateLimit on a tool: the gateway
// honours it (trusted or not), lists it on unchanged, and config may override it.

const FIXTURE = fileURLToPath(new URL('./fixtures/raw-json-rpc-server.ts', import.meta.url));
const entry = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: nodeScriptArgs(FIXTURE),
  cwd: REPO_ROOT,
  ...extra,
});

/** Takes a result as the server sent it: the SDK's own schema would strip `custom`. */
const asSent: StandardSchemaV1<unknown, { tools: Array<Record<string, unknown>> }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value) => ({ value: value as { tools: Array<Record<string, unknown>> } }),
  },
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gatewayOver(server: Record<string, unknown>) {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeConfig(dir, { mode: 'yolo', servers: { records: server } });
  await pinGateway({ config });
  const gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
  });
  cleanups.push(() => gateway.close());
  const client = await connectInMemory(gateway.toolServer);
  cleanups.push(() => client.close());
  const search = async (q: string) =>
    client.client.callTool({ name: 'search', arguments: { q } }) as Promise<{
      content: unknown[];
      isError?: boolean;
      structuredContent?: unknown;
      _meta?: Record<string, unknown>;
    }>;
  return { client, search, gateway };
}

describe('annotations.custom.rateLimit of an upstream tool', () => {
  it('ends calls over the declared limit rate_limited, for an untrusted server', async () => {
    const { search } = await gatewayOver(entry());
    const first = await search('a');
    const second = await search('b');
    expect([first.isError ?? false, second.isError ?? false]).toEqual([false, false]);
    expect(resultText(first as { content: unknown[] })).toBe('found 3 records');
    // The declared maxWaitMs is 0: the third call does not wait for the window.
    const third = await search('c');
    expect(third.isError).toBe(true);
    expect(JSON.stringify(third)).toContain('rate_limited');
    expect(resultText(third as { content: unknown[] })).toMatch(
      /rate limit of 2 call\(s\) per 60000 ms/,
    );
  }, 30_000);

  it('lists the tool downstream with its annotations.custom as the server declared it', async () => {
    const { client } = await gatewayOver(entry());
    const listed = await client.client.request({ method: 'tools/list' }, asSent);
    const search = listed.tools.find((tool) => tool.name === 'search');
    expect(search?.annotations).toEqual({
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
      custom: { rateLimit: { windowMs: 60_000, max: 2, maxWaitMs: 0 }, costClass: 'expensive' },
    });
  }, 30_000);

  it('lets servers.X.tools.Y.rateLimit in config override the declared limit', async () => {
    const { search } = await gatewayOver(
      entry({ tools: { search: { rateLimit: { max: 5, windowMs: 60_000 } } } }),
    );
    const results = [];
    for (const q of ['a', 'b', 'c', 'd']) results.push(await search(q));
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false, false]);
  }, 30_000);
});

describe('servers.X.rateLimit: one quota across the tools of a server', () => {
  it('ends the call over the quota rate_limited, whichever tool of the server it calls', async () => {
    const { client } = await gatewayOver(
      entry({ rateLimit: { max: 2, windowMs: 60_000, maxWaitMs: 0 } }),
    );
    const call = async (name: string) =>
      (await client.client.callTool({ name, arguments: {} })) as {
        content: unknown[];
        isError?: boolean;
      };
    const first = await call('crash_once_read');
    const second = await call('search');
    expect([first.isError ?? false, second.isError ?? false]).toEqual([false, false]);
    // Each tool's own limit has quota left (search: 2 per minute, crash_once_read: none).
    const third = await call('crash_once_read');
    expect(third.isError).toBe(true);
    expect(JSON.stringify(third)).toContain('rate_limited');
    expect(resultText(third)).toMatch(
      /rate limit of server "records" \(across its tools\) of 2 call\(s\) per 60000 ms/,
    );
  }, 30_000);

  it('hands the quota back when a call fails, so failures do not spend it', async () => {
    const { client } = await gatewayOver(
      entry({ rateLimit: { max: 1, windowMs: 60_000, maxWaitMs: 0 } }),
    );
    // busy's first call answers a tool error.
    const failed = (await client.client.callTool({ name: 'busy', arguments: {} })) as {
      isError?: boolean;
    };
    expect(failed.isError).toBe(true);
    const ok = (await client.client.callTool({ name: 'crash_once_read', arguments: {} })) as {
      content: unknown[];
      isError?: boolean;
    };
    expect(ok.isError ?? false).toBe(false);
    expect(resultText(ok)).toBe('read after restart');
  }, 30_000);
});
