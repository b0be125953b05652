import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../mcp/server/mcp-clients.test-helpers.js';
import { fetchAllowArg } from './fetch-allow-arg.js';
import { parseServeArgs } from './parse-serve-args.js';
import { runGateway } from './run-gateway.js';
import { stdioTransport } from './serve-process.test-helpers.js';

describe('--fetch-allow', () => {
  it('takes comma-separated lists, repeated', () => {
    expect(fetchAllowArg(['127.0.0.1, ::1', 'localhost,10.0.0.0/8'])).toEqual({
      ok: true,
      entries: ['127.0.0.1', '::1', 'localhost', '10.0.0.0/8'],
    });
    expect(fetchAllowArg(undefined)).toEqual({ ok: true, entries: [] });
    const serve = parseServeArgs(['--fetch-allow', '127.0.0.1', '--fetch-allow', '*.lan']);
    expect(serve.ok && serve.args.fetchAllow).toEqual(['127.0.0.1', '*.lan']);
  });

  it('refuses an entry that is no address, range or name, saying what to give', () => {
    const parsed = parseServeArgs(['--fetch-allow', '127.0.0.1,10.0.0.0/99']);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(
      /^--fetch-allow: .*"10\.0\.0\.0\/99" has a prefix length .*; give an IP address/,
    );
    expect(fetchAllowArg([','])).toMatchObject({ ok: false, message: /needs a value/ });
  });

  it("is refused by hintgate gateway with a configuration, whose tools are other servers'", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hintgate-fetch-allow-gw-'));
    try {
      const config = join(dir, 'hintgate.yaml');
      await writeFile(config, 'servers:\n  files:\n    command: node\n');
      const errors: string[] = [];
      const io = { stdout: () => {}, stderr: (text: string) => errors.push(text), cwd: dir };
      expect(await runGateway(['--config', config, '--fetch-allow', '127.0.0.1'], io)).toBe(2);
      expect(errors.join('')).toContain(
        '--fetch-allow only applies to the built-in workspace tools',
      );
      errors.length = 0;
      expect(await runGateway(['--fetch-allow', 'http://x'], io)).toBe(2);
      expect(errors.join('')).toContain('--fetch-allow: fetchAllow entry "http://x"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// A real `hintgate serve` process over stdio, fetching from a server on 127.0.0.1.
let page: Server;
let url = '';
let hits = 0;
let workspace = '';
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'hintgate-fetch-allow-'));
  page = createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('local dev server');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => page.close(resolve));
  await rm(workspace, { recursive: true, force: true });
});

const fetchThroughServe = async (args: string[]): Promise<string> => {
  const { client, close } = await connectClient(
    stdioTransport(['--workspace', workspace, '--mode', 'yolo', ...args]),
    'legacy',
  );
  try {
    const result = await client.callTool({ name: 'web_fetch', arguments: { url } });
    return (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');
  } finally {
    await close();
  }
};

describe('hintgate serve --fetch-allow', () => {
  it('refuses 127.0.0.1 by default and reaches it when allowed', async () => {
    hits = 0;
    expect(await fetchThroughServe([])).toMatch(/Refused: .* loopback/);
    expect(hits).toBe(0);
    expect(await fetchThroughServe(['--fetch-allow', '127.0.0.1'])).toContain('local dev server');
    expect(hits).toBe(1);
  }, 60_000);
});
