import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import type { WorkspaceToolsOptions } from '../tools/workspace-tools-options.js';
import { createWebFetchTool } from './create-web-fetch-tool.js';
import type { ResolveHost } from './guarded-get.js';
import { callTool, makeWorkspace, type TempWorkspace, textOf } from './workspace.test-helpers.js';

// Two servers on one port: A on 127.0.0.1 (the "allowed" side in these tests), B on
// 127.0.0.2 (a private address nothing allows). Every test checks that B saw nothing unless
// it was meant to.
const hits = { a: 0, b: 0 };
let port = 0;
const servers: Server[] = [];

const serve = (name: 'a' | 'b', host: string, at: number): Promise<Server> => {
  const server = createServer((request, response) => {
    hits[name] += 1;
    if (request.url === '/to-b') {
      response.writeHead(302, { location: `http://127.0.0.2:${port}/secret` });
      response.end();
    } else if (request.url === '/redirect-self') {
      response.writeHead(302, { location: '/secret' });
      response.end();
    } else {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`served by ${name.toUpperCase()}`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, host, () => resolve(server));
  });
};

beforeAll(async () => {
  for (let attempt = 0; ; attempt += 1) {
    const a = await serve('a', '127.0.0.1', 0);
    port = (a.address() as AddressInfo).port;
    try {
      servers.push(a, await serve('b', '127.0.0.2', port));
      return;
    } catch (error) {
      await new Promise((resolve) => a.close(resolve));
      if (attempt >= 5) throw error;
    }
  }
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

let temp: TempWorkspace;
beforeEach(async () => {
  hits.a = 0;
  hits.b = 0;
  temp = await makeWorkspace();
});
afterEach(() => temp.remove());

const webFetch = (options: Omit<WorkspaceToolsOptions, 'workspace'> = {}) => {
  const runtime = createRuntime({
    tools: [createWebFetchTool({ workspace: temp.workspace, fetchTimeoutMs: 10_000, ...options })],
    mode: 'yolo',
  });
  return async (url: string) => {
    const result = await callTool(runtime, 'web_fetch', { url });
    return { status: result.status, text: textOf(result) };
  };
};

/** A resolver that gives each name its scripted answers in turn (the last one repeats). */
const scripted = (answers: Record<string, string[][]>) => {
  const calls: string[] = [];
  const resolveHost: ResolveHost = async (hostname) => {
    calls.push(hostname);
    const list = answers[hostname];
    if (list === undefined) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    const turn = calls.filter((name) => name === hostname).length - 1;
    const addresses = list[Math.min(turn, list.length - 1)] ?? [];
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolveHost, calls };
};

describe('web_fetch address guard', () => {
  it('refuses loopback and unspecified addresses in every spelling by default', async () => {
    const fetchUrl = webFetch();
    const forms: Array<[string, RegExp]> = [
      ['127.0.0.1', /address: loopback/],
      ['[::ffff:127.0.0.1]', /address: loopback/],
      ['[::ffff:7f00:1]', /address: loopback/],
      ['0.0.0.0', /address: unspecified/],
      ['0', /address: unspecified/],
      ['2130706433', /address: loopback/],
      ['0x7f000001', /address: loopback/],
      ['0177.0.0.1', /address: loopback/],
      ['127.1', /address: loopback/],
      ['0x7f.1', /address: loopback/],
      ['127.0.0.2', /address: loopback/],
      ['[::1]', /address: loopback/],
      ['[::]', /address: unspecified/],
      ['[::127.0.0.1]', /IPv4-compatible .* of 127\.0\.0\.1/],
      ['localhost', /localhost resolves to .* address: loopback/],
    ];
    for (const [host, reason] of forms) {
      const { status, text } = await fetchUrl(`http://${host}:${port}/text`);
      expect(status, host).toBe('error');
      expect(text, host).toMatch(
        /Refused: http:\/\/\S+ (\(.*\) )?is not a public address: .*\. web_fetch does not reach/,
      );
      expect(text, host).toMatch(reason);
      expect(text, host).toContain('--fetch-allow');
    }
    expect(hits).toEqual({ a: 0, b: 0 });
  });

  it('lets an allowed address through in any spelling, and nothing else', async () => {
    const fetchUrl = webFetch({ fetchAllow: ['127.0.0.1'] });
    for (const host of ['127.0.0.1', '[::ffff:7f00:1]', '2130706433', '127.1']) {
      const { status, text } = await fetchUrl(`http://${host}:${port}/text`);
      expect(status, host).toBe('ok');
      expect(text, host).toContain('served by A');
    }
    expect((await fetchUrl(`http://127.0.0.2:${port}/text`)).text).toMatch(
      /Refused: .* address: loopback/,
    );
    expect(hits).toEqual({ a: 4, b: 0 });
  });

  it('reaches a name in the allow list whatever it resolves to', async () => {
    const { resolveHost } = scripted({ 'dev.test': [['127.0.0.2']] });
    const fetchUrl = webFetch({ fetchAllow: ['dev.test'], resolveHost });
    expect((await fetchUrl(`http://dev.test:${port}/text`)).text).toContain('served by B');
    expect(hits).toEqual({ a: 0, b: 1 });
  });

  it('does not follow a redirect to a private address, and refuses it when asked for', async () => {
    const fetchUrl = webFetch({ fetchAllow: ['127.0.0.1'] });
    const away = await fetchUrl(`http://127.0.0.1:${port}/to-b`);
    expect(away.text).toContain(`Redirected to http://127.0.0.2:${port}/secret; call web_fetch`);
    const followed = await fetchUrl(`http://127.0.0.2:${port}/secret`);
    expect(followed.status).toBe('error');
    expect(followed.text).toMatch(/Refused: .* address: loopback/);
    expect(hits).toEqual({ a: 1, b: 0 });
  });

  it('checks every hop: a same-origin redirect whose name now resolves privately is refused', async () => {
    const { resolveHost, calls } = scripted({ 'site.test': [['127.0.0.1'], ['127.0.0.2']] });
    const fetchUrl = webFetch({ fetchAllow: ['127.0.0.1'], resolveHost });
    const { status, text } = await fetchUrl(`http://site.test:${port}/redirect-self`);
    expect(status).toBe('error');
    expect(text).toMatch(
      /Refused: http:\/\/site\.test:\d+ \(site\.test resolves to 127\.0\.0\.2\)/,
    );
    expect(calls).toEqual(['site.test', 'site.test']);
    expect(hits).toEqual({ a: 1, b: 0 });
  });

  it('connects to the answer it checked: a DNS answer that changes after the check reaches nothing private', async () => {
    // First answer allowed, every later one private: a guard that resolves to check and
    // lets the connection resolve again would reach B.
    const { resolveHost, calls } = scripted({ 'rebind.test': [['127.0.0.1'], ['127.0.0.2']] });
    const fetchUrl = webFetch({ fetchAllow: ['127.0.0.1'], resolveHost });
    const first = await fetchUrl(`http://rebind.test:${port}/text`);
    expect(first.text).toContain('served by A');
    expect(calls).toEqual(['rebind.test']);
    const second = await fetchUrl(`http://rebind.test:${port}/text`);
    expect(second.text).toMatch(/Refused: .*rebind\.test resolves to 127\.0\.0\.2/);
    expect(hits).toEqual({ a: 1, b: 0 });
  });

  it('connects only to the checked answers of a name that mixes allowed and private ones', async () => {
    const { resolveHost } = scripted({ 'mixed.test': [['127.0.0.2', '::1', '127.0.0.1']] });
    const fetchUrl = webFetch({ fetchAllow: ['127.0.0.1'], resolveHost });
    expect((await fetchUrl(`http://mixed.test:${port}/text`)).text).toContain('served by A');
    expect(hits).toEqual({ a: 1, b: 0 });
  });

  it('refuses credentials in the URL, which could hide the host from a reader', async () => {
    const fetchUrl = webFetch({ fetchAllow: ['127.0.0.1'] });
    const { status, text } = await fetchUrl(`http://public.example@127.0.0.1:${port}/text`);
    expect(status).toBe('error');
    expect(text).toContain('Refused: web_fetch does not send credentials');
    expect(hits).toEqual({ a: 0, b: 0 });
  });

  it('says when a name does not resolve', async () => {
    const { resolveHost } = scripted({});
    const fetchUrl = webFetch({ resolveHost });
    const { status, text } = await fetchUrl('http://nowhere.test/');
    expect(status).toBe('error');
    expect(text).toContain('ENOTFOUND nowhere.test');
  });

  it('refuses an allow list entry that is no address, range or name when the tool is made', () => {
    expect(() => webFetch({ fetchAllow: ['10.0.0.0/40'] })).toThrow(
      /fetchAllow entry "10.0.0.0\/40" has a prefix length that is not 0-32/,
    );
    expect(() => webFetch({ fetch: globalThis.fetch } as never)).toThrow(
      /fetch is no longer an option/,
    );
  });
});
