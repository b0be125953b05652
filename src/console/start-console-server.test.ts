import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, tempDir, until } from '../gateway/gateway.test-helpers.js';
import { createGateway, type Gateway } from '../gateway/index.js';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { type GatewayConsole, prepareGatewayConsole } from './gateway-console.js';
import type { ConsoleServer } from './start-console-server.js';

// The console's HTTP surface against a real gateway (the built-in workspace tools of a
// temporary directory) over real HTTP on 127.0.0.1.

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request with exactly the headers given (fetch would add or refuse some). */
const send = (
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });

let dir: { dir: string; remove: () => Promise<void> };
let gateway: Gateway;
let webConsole: GatewayConsole;
let server: ConsoleServer;
let base: string;
let origin: string;
const TOKEN = 'correct-horse-battery-staple';

beforeEach(async () => {
  dir = await tempDir();
  webConsole = await prepareGatewayConsole({
    auditPath: join(dir.dir, '.hintgate', 'audit.jsonl'),
    token: TOKEN,
  });
  gateway = await createGateway({
    workspace: dir.dir,
    approvalChannels: webConsole.approvalChannels,
    auditSinks: webConsole.auditSinks,
  });
  server = await webConsole.start(gateway);
  base = server.url.replace(/\/console\/$/, '');
  origin = base;
});

afterEach(async () => {
  await webConsole.close();
  await gateway.close();
  await dir.remove();
});

/** Signs in and returns the cookie and the CSRF token. */
const signIn = async (): Promise<{ cookie: string; csrf: string }> => {
  const login = await send(`${base}/console/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ token: TOKEN }),
  });
  expect(login.status).toBe(200);
  const setCookie = String(login.headers['set-cookie']);
  const cookie = setCookie.split(';')[0] ?? '';
  const session = await send(`${base}/console/api/session`, { headers: { Cookie: cookie } });
  expect(session.status).toBe(200);
  return { cookie, csrf: (JSON.parse(session.body) as { csrf: string }).csrf };
};

const switchMode = (headers: Record<string, string>) =>
  send(`${base}/console/api/mode`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ mode: 'auto' }),
  });

describe('the console server', () => {
  it('listens on 127.0.0.1 and gives the login page a strict CSP, without the token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/$/);
    // A configured token is not put in the address it prints.
    expect(server.loginUrl).not.toContain(TOKEN);
    const page = await send(`${base}/console/login`);
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).not.toContain(TOKEN);
    expect(page.body).not.toMatch(/https?:\/\//);
  });

  it('refuses every page but the login without a session, and a wrong token', async () => {
    expect((await send(`${base}/console/api/session`)).status).toBe(401);
    expect((await send(`${base}/console/api/audit`)).status).toBe(401);
    expect((await send(`${base}/console/api/events`)).status).toBe(401);
    const root = await send(`${base}/console/`);
    expect(root.status).toBe(303);
    expect(root.headers.location).toBe('/console/login');
    const wrong = await send(`${base}/console/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ token: `${TOKEN}x` }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(
      (await send(`${base}/console/api/session`, { headers: { Cookie: 'hintgate_console=x' } }))
        .status,
    ).toBe(401);
  });

  it('keeps a session, not the token, in an HttpOnly SameSite=Strict cookie', async () => {
    const login = await send(`${base}/console/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ token: TOKEN }),
    });
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(
      /^hintgate_console_\d+=[\w-]+; Path=\/console; HttpOnly; SameSite=Strict$/,
    );
    expect(cookie).not.toContain(TOKEN);
  });

  it('refuses a login from a foreign origin', async () => {
    const login = await send(`${base}/console/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(login.status).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a change without the CSRF token, from a foreign origin or another port', async () => {
    const { cookie, csrf } = await signIn();
    const missing = await switchMode({ Cookie: cookie, Origin: origin });
    expect(missing.status).toBe(403);
    expect(missing.body).toContain('CSRF');
    const wrong = await switchMode({ Cookie: cookie, Origin: origin, 'X-CSRF-Token': `${csrf}x` });
    expect(wrong.status).toBe(403);
    const foreign = await switchMode({
      Cookie: cookie,
      Origin: 'http://evil.example',
      'X-CSRF-Token': csrf,
    });
    expect(foreign.status).toBe(403);
    const otherPort = await switchMode({
      Cookie: cookie,
      Origin: 'http://127.0.0.1:1',
      'X-CSRF-Token': csrf,
    });
    expect(otherPort.status).toBe(403);
    const noOrigin = await switchMode({ Cookie: cookie, 'X-CSRF-Token': csrf });
    expect(noOrigin.status).toBe(403);
    const form = await send(`${base}/console/api/mode`, {
      method: 'POST',
      headers: {
        'Content-Type': 'text/plain',
        Cookie: cookie,
        Origin: origin,
        'X-CSRF-Token': csrf,
      },
      body: '{"mode":"auto"}',
    });
    expect(form.status).toBe(415);
    expect(gateway.runtime.mode).toBe('ask');
  });

  it('refuses a foreign or malformed Host (DNS rebinding)', async () => {
    const { cookie } = await signIn();
    const port = new URL(base).port;
    const evil = await send(`${base}/console/api/session`, {
      headers: { Host: `evil.example:${port}`, Cookie: cookie },
    });
    expect(evil.status).toBe(403);
    const malformed = await send(`${base}/console/api/session`, {
      headers: { Host: `evil.example@127.0.0.1:${port}`, Cookie: cookie },
    });
    expect(malformed.status).toBe(400);
  });

  it('switches the mode with the CSRF token and records who switched it', async () => {
    const { cookie, csrf } = await signIn();
    const session = JSON.parse(
      (await send(`${base}/console/api/session`, { headers: { Cookie: cookie } })).body,
    ) as { who: string };
    const done = await switchMode({ Cookie: cookie, Origin: origin, 'X-CSRF-Token': csrf });
    expect(done.status).toBe(200);
    expect(gateway.runtime.mode).toBe('auto');
    const log = join(dir.dir, '.hintgate', 'audit.jsonl');
    await until(async () => (await auditEvents(log)).some((e) => e.type === 'mode.changed'));
    const event = (await auditEvents(log)).find((e) => e.type === 'mode.changed');
    expect(event).toMatchObject({
      mode: 'auto',
      previousMode: 'ask',
      changedBy: { channel: 'console', who: session.who },
    });
    const bad = await send(`${base}/console/api/mode`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Cookie: cookie,
        Origin: origin,
        'X-CSRF-Token': csrf,
      },
      body: JSON.stringify({ mode: 'everything' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('plan, ask, auto, allowlist, yolo');
  });

  /** The inbox's requests, as the page gets them. */
  const inbox = async (cookie: string) =>
    JSON.parse((await send(`${base}/console/api/inbox`, { headers: { Cookie: cookie } })).body) as {
      id: string;
      tool: { name: string };
    }[];
  const answer = (id: string, auth: { cookie: string; csrf: string }, body: unknown) =>
    send(`${base}/console/api/inbox/${id}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Cookie: auth.cookie,
        Origin: origin,
        'X-CSRF-Token': auth.csrf,
      },
      body: JSON.stringify(body),
    });

  it('holds the call of a client without elicitation for the console; one answer counts', async () => {
    const auth = await signIn();
    const client = await connectInMemory(gateway.toolServer);
    const call = client.client.callTool({
      name: 'write_file',
      arguments: { path: 'a.txt', content: 'x' },
    });
    let id = '';
    await until(async () => {
      id = (await inbox(auth.cookie))[0]?.id ?? '';
      return id !== '';
    });
    expect((await answer(id, auth, { decision: 'deny', reason: 'not now' })).status).toBe(200);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('not now');
    expect((await answer(id, auth, { decision: 'allow' })).status).toBe(409);
    await client.close();
  });

  it('offers the call to the client and the console: the first answer wins, the other is withdrawn', async () => {
    const auth = await signIn();
    // The client's user never answers; the console does.
    let cancelled = false;
    const client = await connectInMemory(gateway.toolServer, {
      answer: () =>
        new Promise(() => {
          cancelled = false;
        }),
    });
    client.client.setNotificationHandler('notifications/cancelled', () => {
      cancelled = true;
    });
    const call = client.client.callTool({
      name: 'write_file',
      arguments: { path: 'b.txt', content: 'from the console' },
    });
    let id = '';
    await until(async () => {
      id = (await inbox(auth.cookie))[0]?.id ?? '';
      return id !== '' && client.forms.length === 1;
    });
    expect((await answer(id, auth, { decision: 'allow', remember: 'once' })).status).toBe(200);
    const result = await call;
    expect(result.isError).not.toBe(true);
    await until(() => cancelled);
    await client.close();

    // Now the client answers first: the console's request is withdrawn.
    const quick = await connectInMemory(gateway.toolServer, {
      answer: async () => {
        await until(async () => (await inbox(auth.cookie)).length === 1);
        return { action: 'accept', content: { decision: 'allow_once' } };
      },
    });
    const second = await quick.client.callTool({
      name: 'write_file',
      arguments: { path: 'c.txt', content: 'from the client' },
    });
    expect(second.isError).not.toBe(true);
    expect(await inbox(auth.cookie)).toEqual([]);
    const log = join(dir.dir, '.hintgate', 'audit.jsonl');
    const granted = (await auditEvents(log)).filter((e) => e.type === 'approval.granted');
    expect(granted.map((e) => (e.answeredBy as { channel: string }).channel)).toEqual([
      'console',
      'elicitation',
    ]);
    await quick.close();
  });
});
