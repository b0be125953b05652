import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleInbox, type PendingApproval } from '../../console/index.js';
import type { Approver } from '../../policy/index.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { nodeScriptArgs } from '../../testing/index.js';
import { NO_APPROVAL_CHANNEL_WHY } from './approval-form.js';
import { createMcpHttpHandler } from './create-mcp-http-handler.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import { behaviourTools } from './fixtures/behaviour-tools.js';
import {
  connectClient,
  connectOverFetch,
  type ElicitationScript,
  type Era,
  type TestClient,
} from './mcp-clients.test-helpers.js';
import { startMcpHttpServer } from './start-mcp-http-server.js';

// One behaviour suite for every downstream entry of a tools/call: stdio (both eras, a real
// child process), Streamable HTTP with the fast path of plain 2025-11-25 calls
// (startMcpHttpServer), HTTP through the SDK only (createMcpHttpHandler), and HTTP on the
// 2026-07-28 era. Each runs the same tools in mode ask, so that they cannot drift apart.
// The web console's approval channel is offered by the entries served in this process.

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = fileURLToPath(new URL('./fixtures/behaviour-server.ts', import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A tool server over the scenario tools, in this process; closed after the test. */
const inProcess = (approvalChannels?: readonly Approver[]) => {
  const runtime = createRuntime({ tools: behaviourTools().tools, mode: 'ask' });
  const toolServer = createMcpToolServer({
    runtime,
    ...(approvalChannels === undefined ? {} : { approvalChannels }),
  });
  cleanups.push(async () => {
    await toolServer.close();
    await runtime.close();
  });
  return toolServer;
};

interface Entry {
  readonly name: string;
  readonly era: Era;
  /**
   * `channels`: approval channels besides the client's own (the web console's inbox). Only
   * the entries served in this process take them: the stdio entries' server is a child
   * process, whose inbox this process cannot answer.
   */
  connect(script?: ElicitationScript, channels?: readonly Approver[]): Promise<TestClient>;
  readonly inProcess: boolean;
}

const overHttp = async (
  era: Era,
  script?: ElicitationScript,
  channels?: readonly Approver[],
): Promise<TestClient> => {
  const server = await startMcpHttpServer({ toolServer: inProcess(channels), port: 0 });
  cleanups.push(() => server.close());
  return connectClient(new StreamableHTTPClientTransport(new URL(server.url)), era, script);
};

const overStdio = (era: Era, script?: ElicitationScript): Promise<TestClient> =>
  connectClient(
    new StdioClientTransport({
      command: process.execPath,
      // The fixture's build from this test run, when there is one (else through tsx).
      args: nodeScriptArgs(SERVER),
      cwd: REPO_ROOT,
      stderr: 'pipe',
    }),
    era,
    script,
  );

const ENTRIES: readonly Entry[] = [
  {
    name: 'stdio, 2025-11-25',
    era: 'legacy',
    inProcess: false,
    connect: (script) => overStdio('legacy', script),
  },
  {
    name: 'stdio, 2026-07-28',
    era: 'modern',
    inProcess: false,
    connect: (script) => overStdio('modern', script),
  },
  {
    name: 'HTTP with its fast path, 2025-11-25 session',
    era: 'legacy',
    inProcess: true,
    connect: (script, channels) => overHttp('legacy', script, channels),
  },
  {
    name: 'HTTP through the SDK (createMcpHttpHandler), 2025-11-25 session',
    era: 'legacy',
    inProcess: true,
    async connect(script, channels) {
      const handler = createMcpHttpHandler({ toolServer: inProcess(channels) });
      cleanups.push(() => handler.close());
      return connectOverFetch(handler, 'legacy', script);
    },
  },
  {
    name: 'HTTP, 2026-07-28',
    era: 'modern',
    inProcess: true,
    connect: (script, channels) => overHttp('modern', script, channels),
  },
];

/** The first request the console's inbox shows, once it shows one. */
const nextPending = (inbox: ConsoleInbox): Promise<PendingApproval> =>
  new Promise((resolve) => {
    const check = (): void => {
      const [first] = inbox.pending();
      if (first === undefined) return;
      stop();
      resolve(first);
    };
    const stop = inbox.onChange(check);
    check();
  });

const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as Array<{ type: string; text?: string }>)
    .map((block) => block.text ?? '')
    .join('');

/** Calls the counter tool `name` until it answers `want` (at most 200 times); its last answer. */
const poll = async (client: TestClient['client'], name: string, want: string): Promise<string> => {
  let seen = '';
  for (let attempt = 0; attempt < 200; attempt += 1) {
    seen = textOf(await client.callTool({ name, arguments: {} }));
    if (seen === want) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return seen;
};

describe.each(ENTRIES)('tools/call over $name', (entry) => {
  const connect = async (script?: ElicitationScript, channels?: readonly Approver[]) => {
    const client = await entry.connect(script, channels);
    cleanups.push(() => client.close());
    return client;
  };

  it('calls a tool and returns its result', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.isError ?? false).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(result._meta).toMatchObject({ 'dev.hintgate/status': 'ok' });
  });

  it("turns a tool's failure and bad arguments into results with their codes", async () => {
    const { client } = await connect();
    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('the disk is on fire');
    expect(failed._meta).toMatchObject({ 'dev.hintgate/code': 'tool_error' });
    const invalid = await client.callTool({ name: 'echo', arguments: { text: 3 } });
    expect(invalid.isError).toBe(true);
    expect(invalid._meta).toMatchObject({ 'dev.hintgate/code': 'invalid_arguments' });
  });

  it('asks the person through the era’s channel and runs the call once allowed', async () => {
    const client = await connect({});
    const result = await client.client.callTool({ name: 'remove', arguments: { key: 'a' } });
    expect(result.isError ?? false).toBe(false);
    expect(textOf(result)).toBe('removed a');
    expect(client.forms).toHaveLength(1);
    expect(client.forms[0]?.message).toContain('remove');
  });

  it('denies the call when the person declines, and the tool does not run', async () => {
    const client = await connect({ answer: () => ({ action: 'decline' }) });
    const result = await client.client.callTool({ name: 'remove', arguments: { key: 'a' } });
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ 'dev.hintgate/code': 'denied' });
    expect(textOf(result)).not.toContain('removed');
  });

  it.runIf(entry.inProcess)(
    'asks through the web console while the call waits, and runs it once allowed there',
    async () => {
      const inbox = new ConsoleInbox();
      // A client that cannot ask its user: the console is the only channel.
      const client = await connect(undefined, [inbox.approver]);
      const call = client.client.callTool({ name: 'remove', arguments: { key: 'a' } });
      const pending = await nextPending(inbox);
      expect(pending.tool.name).toBe('remove');
      expect(pending.arguments).toEqual({ key: 'a' });
      expect(inbox.answer(pending.id, { decision: 'allow' }, 'tester')).toBe(true);
      const result = await call;
      expect(result.isError ?? false).toBe(false);
      expect(textOf(result)).toBe('removed a');
      expect(inbox.pending()).toEqual([]);
      expect(client.forms).toHaveLength(0);
    },
  );

  it.runIf(entry.inProcess)(
    'denies the call with the reason typed in the web console, and the tool does not run',
    async () => {
      const inbox = new ConsoleInbox();
      const client = await connect(undefined, [inbox.approver]);
      const call = client.client.callTool({ name: 'remove', arguments: { key: 'a' } });
      const pending = await nextPending(inbox);
      inbox.answer(pending.id, { decision: 'deny', reason: 'not today' }, 'tester');
      const result = await call;
      expect(result.isError).toBe(true);
      expect(result._meta).toMatchObject({ 'dev.hintgate/code': 'denied' });
      expect(textOf(result)).toContain('not today');
      expect(textOf(result)).not.toContain('removed');
    },
  );

  it('denies, saying why, when the client cannot ask its user', async () => {
    const client = await connect();
    const result = await client.client.callTool({ name: 'remove', arguments: { key: 'a' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(NO_APPROVAL_CHANNEL_WHY);
    expect(client.forms).toHaveLength(0);
  });

  it("relays the tool's progress before the result", async () => {
    const { client } = await connect();
    // Read off the wire by token: the SDK client's own onprogress forgets a token when the
    // result arrives, before it dispatched progress that came in the same read.
    const seen: number[] = [];
    client.setNotificationHandler('notifications/progress', (notification) => {
      if (notification.params.progressToken === 'count-1') seen.push(notification.params.progress);
    });
    const result = await client.callTool({
      name: 'count',
      arguments: {},
      _meta: { progressToken: 'count-1' },
    });
    expect(textOf(result)).toBe('counted');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('cancels a running call when the client cancels its request', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const waiting = client.callTool(
      { name: 'wait', arguments: {} },
      // The tool's first progress says it runs; then the client gives up on it.
      { signal: controller.signal, onprogress: () => controller.abort('enough') },
    );
    await expect(waiting).rejects.toThrow();
    let cancelled = '0';
    for (let attempt = 0; attempt < 200 && cancelled === '0'; attempt += 1) {
      cancelled = textOf(await client.callTool({ name: 'cancellations', arguments: {} }));
      if (cancelled === '0') await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(cancelled).toBe('1');
  });

  it('cancels a running call that asked no progress (a plain call)', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    // No onprogress: the request carries no _meta, so it takes the entry's plain path.
    const waiting = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    waiting.catch(() => {});
    expect(await poll(client, 'running', '1')).toBe('1');
    controller.abort('enough');
    await expect(waiting).rejects.toThrow();
    expect(await poll(client, 'cancellations', '1')).toBe('1');
    expect(await poll(client, 'running', '0')).toBe('0');
  });
});
