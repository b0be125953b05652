import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  connectClient,
  type ElicitationScript,
  ERAS,
  type Era,
  initializeRequest,
  type TestClient,
} from '../mcp/server/mcp-clients.test-helpers.js';
import { createWorkspaceTools } from '../tools/index.js';
import {
  type HttpServeProcess,
  startHttpServe,
  stdioTransport,
} from './serve-process.test-helpers.js';

// A real `hintgate serve` child process (from the test run's build, see `nodeScriptArgs`)
// and a real SDK client, over stdio and Streamable HTTP, on both protocol eras.

// The tests run concurrently. Over stdio each test spawns its own server (one client per
// process); over HTTP the tests of both eras share one server per mode (see `sharedHttp`),
// as the clients of one deployment do, each on its own session. Up to five `hintgate
// serve` processes start at once, which on 2 busy cores can take longer than the default
// 20 s per test.
vi.setConfig({ testTimeout: 60_000 });

let root: string;
/** The HTTP servers shared by the tests, by mode, each with its own workspace. */
const shared = new Map<string, Promise<{ server: HttpServeProcess; dir: string }>>();
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hintgate-serve-'));
});
afterAll(async () => {
  const started = await Promise.allSettled(shared.values());
  for (const entry of started) {
    if (entry.status === 'fulfilled') await entry.value.server.stop('SIGKILL');
  }
  await rm(root, { recursive: true, force: true });
});

let workspaces = 0;
/** A fresh workspace with `a.txt` and `b.txt`. */
const workspace = async (): Promise<string> => {
  workspaces += 1;
  const dir = join(root, `ws${workspaces}`);
  await mkdir(dir);
  await writeFile(join(dir, 'a.txt'), 'old a\n');
  await writeFile(join(dir, 'b.txt'), 'old b\n');
  return dir;
};

const text = (result: { content: unknown }): string =>
  (result.content as Array<{ type: string; text?: string }>)
    .map((block) => block.text ?? '')
    .join('\n');

/**
 * The HTTP server of `mode` the tests share (started by the first test that asks), and its
 * workspace. A test that writes uses a file of its own.
 */
const sharedHttp = (mode: 'auto' | 'yolo'): Promise<{ server: HttpServeProcess; dir: string }> => {
  let started = shared.get(mode);
  if (started === undefined) {
    started = workspace().then(async (dir) => ({
      server: await startHttpServe(['--workspace', dir, '--mode', mode]),
      dir,
    }));
    shared.set(mode, started);
  }
  return started;
};

const TRANSPORTS = ['stdio', 'http'] as const;
const CASES = TRANSPORTS.flatMap((transport) => ERAS.map((era) => [transport, era] as const));

/**
 * Servers and clients for one test, closed when it finishes (`onTestFinished` of the
 * test's own context: the tests run concurrently).
 */
const harness = (onFinished: (cleanup: () => Promise<void>) => void) => {
  const serveHttp = async (args: string[], env?: NodeJS.ProcessEnv) => {
    const server = await startHttpServe(args, env === undefined ? {} : { env });
    onFinished(async () => {
      await server.stop('SIGKILL');
    });
    return server;
  };
  const track = (client: TestClient): TestClient => {
    onFinished(() => client.close());
    return client;
  };
  const overHttp = async (
    server: HttpServeProcess,
    era: Era,
    script?: ElicitationScript,
    headers?: Record<string, string>,
  ) =>
    track(
      await connectClient(
        new StreamableHTTPClientTransport(new URL(server.url), {
          ...(headers === undefined ? {} : { requestInit: { headers } }),
        }),
        era,
        script,
      ),
    );
  /**
   * One client of `era` over `transport` to `hintgate serve --workspace <dir> --mode
   * <mode>`: over stdio a server of its own with a fresh workspace, over HTTP the shared
   * server of `mode`. With the workspace it serves.
   */
  const connect = async (
    transport: (typeof TRANSPORTS)[number],
    era: Era,
    mode: 'auto' | 'yolo',
    script?: ElicitationScript,
  ): Promise<TestClient & { dir: string }> => {
    if (transport === 'http') {
      const { server, dir } = await sharedHttp(mode);
      return { ...(await overHttp(server, era, script)), dir };
    }
    const dir = await workspace();
    const args = ['--workspace', dir, '--mode', mode];
    return { ...track(await connectClient(stdioTransport(args), era, script)), dir };
  };
  return { serveHttp, overHttp, connect };
};

describe.concurrent.each(CASES)('hintgate serve over %s, %s era', (transport, era) => {
  it('lists the workspace tools with their annotations exactly as declared', async ({
    onTestFinished,
  }) => {
    const { connect } = harness(onTestFinished);
    const { client, dir } = await connect(transport, era, 'auto');
    const { tools } = await client.listTools();
    const declared = createWorkspaceTools({ workspace: dir });
    expect(tools.map((tool) => tool.name).sort()).toEqual(declared.map((tool) => tool.name).sort());
    for (const tool of declared) {
      const listed = tools.find((entry) => entry.name === tool.name);
      expect(listed?.annotations, tool.name).toStrictEqual(tool.annotations);
      expect(listed?.inputSchema, tool.name).toEqual(tool.inputSchema.jsonSchema);
      expect(listed?._meta?.['dev.hintgate/trusted'], tool.name).toBe(true);
    }
  });

  it('keeps [write_file(a), read_file(a), read_file(b)] in order: read(a) sees the write', async ({
    onTestFinished,
  }) => {
    const { connect } = harness(onTestFinished);
    const { client, dir } = await connect(transport, era, 'yolo');
    // A file of this test's own: over HTTP the workspace is shared with the other era's test.
    const a = `a-${era}.txt`;
    await writeFile(join(dir, a), 'old a\n');
    const [written, readA, readB] = await Promise.all([
      client.callTool({ name: 'write_file', arguments: { path: a, content: 'new a\n' } }),
      client.callTool({ name: 'read_file', arguments: { path: a } }),
      client.callTool({ name: 'read_file', arguments: { path: 'b.txt' } }),
    ]);
    expect(written.isError ?? false).toBe(false);
    // Over HTTP the three requests travel on separate connections and may arrive in any
    // order; over stdio they arrive in the order sent.
    if (transport === 'stdio') expect(text(readA)).toContain('new a');
    expect(text(readB)).toContain('old b');
    expect(await readFile(join(dir, a), 'utf8')).toBe('new a\n');
  });

  it('asks the client before a destructive write; runs it on approval, not on decline', async ({
    onTestFinished,
  }) => {
    const { connect } = harness(onTestFinished);
    let answer: 'allow_once' | 'decline' = 'allow_once';
    const client = await connect(transport, era, 'auto', {
      answer: () =>
        answer === 'decline'
          ? { action: 'decline' }
          : { action: 'accept', content: { decision: 'allow_once' } },
    });
    const [c, d] = [`c-${era}.txt`, `d-${era}.txt`];
    const approved = await client.client.callTool({
      name: 'write_file',
      arguments: { path: c, content: 'approved\n' },
    });
    expect(approved.isError ?? false).toBe(false);
    expect(await readFile(join(client.dir, c), 'utf8')).toBe('approved\n');
    expect(client.forms[0]?.message).toContain('write_file');
    expect(client.forms[0]?.message).toContain(`file:${c}`);

    answer = 'decline';
    const declined = await client.client.callTool({
      name: 'write_file',
      arguments: { path: d, content: 'declined\n' },
    });
    expect(declined).toMatchObject({ isError: true, _meta: { 'dev.hintgate/status': 'denied' } });
    await expect(readFile(join(client.dir, d), 'utf8')).rejects.toThrow();
    expect(client.forms).toHaveLength(2);
  });

  it('denies a call that needs approval when the client cannot ask', async ({ onTestFinished }) => {
    const { connect } = harness(onTestFinished);
    const { client, dir } = await connect(transport, era, 'auto');
    const e = `e-${era}.txt`;
    const result = await client.callTool({
      name: 'write_file',
      arguments: { path: e, content: 'never\n' },
    });
    expect(result).toMatchObject({ isError: true, _meta: { 'dev.hintgate/status': 'denied' } });
    expect(text(result)).toContain('cannot ask its user');
    await expect(readFile(join(dir, e), 'utf8')).rejects.toThrow();
  });
});

/** A raw POST with exactly these headers (fetch would not let a test set Host). */
const rawInitialize = (url: string, headers: Record<string, string>): Promise<number> =>
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
        res.resume();
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(initializeRequest()));
  });

describe.concurrent('hintgate serve --http', () => {
  it('refuses DNS rebinding: a foreign Host or Origin gets 403', async () => {
    const { server } = await sharedHttp('auto');
    const { port } = new URL(server.url);
    expect(await rawInitialize(server.url, { host: 'evil.example' })).toBe(403);
    expect(
      await rawInitialize(server.url, {
        host: `localhost:${port}`,
        origin: 'https://evil.example',
      }),
    ).toBe(403);
    expect(await rawInitialize(server.url, { host: `localhost:${port}` })).toBe(200);
  });

  it('requires the bearer token from --token or HINTGATE_TOKEN, and stops cleanly on SIGTERM', async ({
    onTestFinished,
  }) => {
    const { serveHttp, overHttp } = harness(onTestFinished);
    const token = 's3cret-token-for-tests';
    const server = await serveHttp(['--workspace', await workspace()], {
      ...process.env,
      HINTGATE_TOKEN: token,
    });
    expect(server.stderr()).toContain('bearer token required');
    expect(await rawInitialize(server.url, {})).toBe(401);
    expect(await rawInitialize(server.url, { authorization: 'Bearer wrong-token!' })).toBe(401);
    for (const era of ERAS) {
      await expect(overHttp(server, era)).rejects.toBeInstanceOf(SdkHttpError);
      const { client } = await overHttp(server, era, undefined, {
        Authorization: `Bearer ${token}`,
      });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    }
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
