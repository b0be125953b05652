import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INITIALIZED_NOTIFICATION,
  initializeRequest,
} from '../mcp/server/mcp-clients.test-helpers.js';
import { type HttpServeProcess, startHttpServe } from './serve-process.test-helpers.js';

// A real `hintgate serve --http` process with its default session limits (64 in all, 16 per
// client address), and raw clients from several loopback addresses (127.0.0.x), each its
// own "client".

let workspace = '';
let server: HttpServeProcess;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'hintgate-sessions-'));
  server = await startHttpServe(['--workspace', workspace]);
}, 60_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await rm(workspace, { recursive: true, force: true });
});

/** One POST from `from` to `url`; resolves to the status and the session id it was given. */
const postTo = (
  url: string,
  from: string,
  body: unknown,
  sessionId?: string,
): Promise<{ status: number; sessionId: string | undefined }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(sessionId === undefined
            ? {}
            : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
        },
      },
      (res) => {
        const id = res.headers['mcp-session-id'];
        resolve({
          status: res.statusCode ?? 0,
          sessionId: typeof id === 'string' ? id : undefined,
        });
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });

const initializeAt = async (url: string, from: string): Promise<string> => {
  const { status, sessionId } = await postTo(url, from, initializeRequest(`client-${from}`));
  expect(status, `initialize from ${from}`).toBe(200);
  if (sessionId === undefined) throw new Error('no session id');
  return sessionId;
};

/** `notifications/initialized` on a session: 202 while it is open, 404 once it is not. */
const initializedAt = async (url: string, from: string, sessionId: string): Promise<number> =>
  (await postTo(url, from, INITIALIZED_NOTIFICATION, sessionId)).status;

/** The same on the server with the default limits. */
const initialize = (from: string): Promise<string> => initializeAt(server.url, from);
const initialized = (from: string, sessionId: string): Promise<number> =>
  initializedAt(server.url, from, sessionId);

describe.concurrent('hintgate serve --http session table', () => {
  it('still lets a new client in after others filled it with idle sessions', async () => {
    const light = await initialize('127.0.0.9');
    expect(await initialized('127.0.0.9', light)).toBe(202);
    // Five "clients" try to hold 20 sessions each, all past initialize and then idle:
    // more than the table (64) and than one client may hold (16).
    const fillers: Array<[string, string]> = [];
    for (let round = 0; round < 20; round += 1) {
      for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6']) {
        const id = await initialize(from);
        expect(await initialized(from, id)).toBe(202);
        fillers.push([from, id]);
      }
    }
    const fresh = await initialize('127.0.0.1');
    expect(await initialized('127.0.0.1', fresh)).toBe(202);
    // The light client's one session was never what made room.
    expect(await initialized('127.0.0.9', light)).toBe(202);
    let open = 0;
    for (const [from, id] of fillers) if ((await initialized(from, id)) === 202) open += 1;
    expect(open).toBeLessThanOrEqual(64 - 2);
  }, 120_000);

  it('takes its limits from the session flags: a smaller table, and sessions closed sooner', async () => {
    // The defaults (64, 16, 10 min, 10 s) are the library's, checked where they are set.
    const limited = await startHttpServe([
      '--workspace',
      workspace,
      '--max-sessions',
      '3',
      '--max-sessions-per-client',
      '2',
      '--uninitialized-session-ms',
      '1000',
    ]);
    try {
      const { url } = limited;
      const abandoned = await initializeAt(url, '127.0.0.7');
      const completed = await initializeAt(url, '127.0.0.7');
      expect(await initializedAt(url, '127.0.0.7', completed)).toBe(202);
      // One look after 2.5 s (a look counts as use, so only one).
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await initializedAt(url, '127.0.0.7', abandoned)).toBe(404);
      expect(await initializedAt(url, '127.0.0.7', completed)).toBe(202);
      // Two per client: a third from the same address closes its least recently used.
      const second = await initializeAt(url, '127.0.0.7');
      expect(await initializedAt(url, '127.0.0.7', second)).toBe(202);
      const third = await initializeAt(url, '127.0.0.7');
      expect(await initializedAt(url, '127.0.0.7', third)).toBe(202);
      expect(await initializedAt(url, '127.0.0.7', completed)).toBe(404);
      // Three in all: another client's session fills it, a fourth closes one of the client
      // holding the most (127.0.0.7, least recently used first).
      const other = await initializeAt(url, '127.0.0.8');
      expect(await initializedAt(url, '127.0.0.8', other)).toBe(202);
      const fourth = await initializeAt(url, '127.0.0.9');
      expect(await initializedAt(url, '127.0.0.9', fourth)).toBe(202);
      expect(await initializedAt(url, '127.0.0.7', second)).toBe(404);
      expect(await initializedAt(url, '127.0.0.8', other)).toBe(202);
    } finally {
      await limited.stop('SIGKILL');
    }
  }, 60_000);
});
