import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../gateway/config/index.js';
import {
  everythingServer,
  type FixtureTool,
  resultText,
  tempDir,
  toolsFileServer,
} from '../gateway/gateway.test-helpers.js';
import {
  connectClient,
  INITIALIZED_NOTIFICATION,
  initializeRequest,
} from '../mcp/server/mcp-clients.test-helpers.js';
import { captureCli } from './run-cli.test-helpers.js';
import { cliArgv, gatewayStdio, REPO_ROOT } from './serve-process.test-helpers.js';

// `hintgate init`, `pin` and `gateway` in process (init, pin) and as real child processes
// (gateway) in front of real upstream servers.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const setup = async () => {
  const temp = await tempDir();
  cleanups.push(temp.remove);
  return temp.dir;
};

const cli = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  captureCli(args, { env, cwd });

const READ = { readOnlyHint: true, openWorldHint: false };

/** A directory with a hintgate.yaml fronting server-everything and a fixture that shares "echo". */
const gatewayDir = async (extra: Record<string, unknown> = {}) => {
  const dir = await setup();
  const tools: FixtureTool[] = [
    { name: 'echo', description: 'Echoes.', annotations: READ },
    { name: 'lookup', description: 'Reads a record.', annotations: READ },
  ];
  const fixture = await toolsFileServer(dir, 'fixture', tools, { trusted: true });
  const config = {
    servers: { everything: everythingServer({ trusted: true }), fixture: fixture.entry },
    ...extra,
  };
  await writeFile(join(dir, 'hintgate.yaml'), JSON.stringify(config, null, 2));
  return { dir, fixture, tools };
};

const gatewayArgv = (args: string[]) => cliArgv('gateway', args);

describe('hintgate init', () => {
  it('writes a starter hintgate.yaml that loads, and refuses to overwrite it without --force', async () => {
    const dir = await setup();
    const first = await cli(['init'], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Wrote hintgate.yaml');
    const config = await loadGatewayConfig(join(dir, 'hintgate.yaml'));
    expect(config.servers.map((server) => server.name)).toEqual(['everything']);

    await writeFile(join(dir, 'hintgate.yaml'), 'servers: {}\n');
    const again = await cli(['init'], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(again.stderr).toContain('--force');
    expect(await readFile(join(dir, 'hintgate.yaml'), 'utf8')).toBe('servers: {}\n');

    expect((await cli(['init', '--force'], dir)).code).toBe(0);
    await loadGatewayConfig(join(dir, 'hintgate.yaml'));
  });

  it('rejects a bad flag with exit 2 and one line', async () => {
    const dir = await setup();
    const bad = await cli(['init', '--forse'], dir);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toBe(
      'hintgate init: unknown option "--forse". Run "hintgate init --help" for usage.\n',
    );
    expect((await cli(['init', '--force=yes'], dir)).stderr).toContain('takes no value');
    expect((await cli(['init', 'extra'], dir)).stderr).toContain('unexpected argument "extra"');
  });
});

describe('hintgate pin', () => {
  it('writes hintgate.lock beside the configuration, then reports changes with their severity', async () => {
    const { dir, fixture, tools } = await gatewayDir();
    const first = await cli(['pin'], dir);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('everything: 17 tools (17 new)');
    expect(first.stdout).toContain('fixture: 2 tools (2 new)');
    expect(first.stdout).toContain('Wrote hintgate.lock: 19 tools of 2 servers pinned.');
    const lock = JSON.parse(await readFile(join(dir, 'hintgate.lock'), 'utf8')) as {
      servers: Record<string, { tools: Record<string, { hash: string }> }>;
    };
    expect(Object.keys(lock.servers.fixture?.tools ?? {})).toEqual(['echo', 'lookup']);
    expect(lock.servers.everything?.tools['get-sum']?.hash).toMatch(/^sha256:/);

    expect((await cli(['pin'], dir)).stdout).toContain('Up to date: hintgate.lock');

    await fixture.setTools([
      { ...tools[0], annotations: {} } as FixtureTool,
      { name: 'lookup', description: 'Reads.', annotations: READ },
    ]);
    const lockBefore = await readFile(join(dir, 'hintgate.lock'), 'utf8');
    // Not on a terminal: the changes are shown, and written only with --yes.
    const shown = await cli(['pin', '--config', 'hintgate.yaml'], dir);
    expect(shown.code).toBe(1);
    expect(shown.stdout).toContain('fixture: 2 tools (2 changed)');
    expect(shown.stdout).toContain('  changed  lookup (description) [medium]');
    expect(shown.stdout).toContain('      - Reads a record.');
    expect(shown.stdout).toContain('      + Reads.');
    expect(shown.stdout).toContain('  changed  echo (annotations) [medium]');
    expect(shown.stdout).toContain('      readOnlyHint: true -> absent');
    expect(shown.stdout).toContain('"hintgate pin --yes"');
    expect(await readFile(join(dir, 'hintgate.lock'), 'utf8')).toBe(lockBefore);
    const dry = await cli(['pin', '--dry-run'], dir);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('  changed  lookup (description) [medium]');
    expect(dry.stdout).toContain('Dry run: nothing written to hintgate.lock');
    expect(await readFile(join(dir, 'hintgate.lock'), 'utf8')).toBe(lockBefore);
    const again = await cli(['pin', '--config', 'hintgate.yaml', '--yes'], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('fixture: 2 tools (2 changed)');
    expect(again.stdout).toContain('Wrote hintgate.lock');
    expect((await cli(['pin'], dir)).stdout).toContain('Up to date: hintgate.lock');
  }, 60_000); // seven pin runs, each starting both servers

  it('fails with exit 1 and a clear line when a server cannot start, writing nothing', async () => {
    const dir = await setup();
    await writeFile(
      join(dir, 'hintgate.yaml'),
      JSON.stringify({ servers: { broken: { command: join(dir, 'no-such-program') } } }),
    );
    const failed = await cli(['pin'], dir);
    expect(failed.code).toBe(1);
    expect(failed.stderr.split('\n')[0]).toMatch(
      /^hintgate pin: Could not connect to MCP server "broken" .*ENOENT/,
    );
    await expect(readFile(join(dir, 'hintgate.lock'), 'utf8')).rejects.toThrow();
  });

  it('says how to start when there is no configuration', async () => {
    const dir = await setup();
    const none = await cli(['pin'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('run "hintgate init"');
  });
});

describe('hintgate gateway', () => {
  it('serves pinned upstream tools over stdio to an SDK client; a shared name is prefixed', async () => {
    const { dir } = await gatewayDir();
    expect((await cli(['pin'], dir)).code).toBe(0);
    const { transport, stderr } = gatewayStdio(['--config', join(dir, 'hintgate.yaml')]);
    const client = await connectClient(transport, 'legacy');
    cleanups.push(() => client.close());
    const { tools } = await client.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'fixture__echo', 'lookup']));
    expect(names).not.toContain('echo');
    const result = await client.client.callTool({
      name: 'fixture__echo',
      arguments: { text: 'hi' },
    });
    expect(resultText(result as { content: unknown[] })).toBe('fixture echo {"text":"hi"}');
    expect(stderr()).toContain(
      'hintgate gateway: serving 19 tools of 2 servers, mode ask over stdio',
    );
    expect(stderr()).toContain('[everything] ');
  });

  it('serves Streamable HTTP with a bearer token, and refuses requests without it', async () => {
    const { dir } = await gatewayDir({
      pin: { newTools: 'allow' },
      // One session per client address: a second initialize closes the first.
      downstream: { http: { sessions: { perClient: 1 } } },
    });
    const child = spawn(
      process.execPath,
      gatewayArgv(['--config', join(dir, 'hintgate.yaml'), '--http', '--port', '0']),
      {
        cwd: REPO_ROOT,
        env: { ...process.env, HINTGATE_TOKEN: 'secret-token-123' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL:\n${stderr}`)), 20_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += String(chunk);
        const found = / at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        }
      });
    });
    expect(stderr).toContain('bearer token required');
    expect(stderr).toContain('no pin file');

    const refused = await fetch(url, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    const post = (body: unknown, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: 'Bearer secret-token-123',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session === undefined
            ? {}
            : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
        },
        body: JSON.stringify(body),
      });
    const first = (await post(initializeRequest())).headers.get('mcp-session-id') ?? '';
    const second = (await post(initializeRequest())).headers.get('mcp-session-id') ?? '';
    expect((await post(INITIALIZED_NOTIFICATION, first)).status).toBe(404);
    expect((await post(INITIALIZED_NOTIFICATION, second)).status).toBe(202);
    const client = await connectClient(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: 'Bearer secret-token-123' } },
      }),
      'legacy',
    );
    cleanups.push(() => client.close());
    const sum = await client.client.callTool({ name: 'get-sum', arguments: { a: 20, b: 22 } });
    expect(resultText(sum as { content: unknown[] })).toContain('42');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('rejects a configuration mistake with its file, line and fix, and misplaced flags, with exit 2', async () => {
    const dir = await setup();
    await writeFile(join(dir, 'hintgate.yaml'), 'servers:\n  github:\n    comand: npx\n');
    const bad = await cli(['gateway'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('hintgate.yaml:3:5: servers.github.comand is not a server key');
    const flag = await cli(['gateway', '--port', '8080'], await setup());
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--port only applies with --http');
    expect((await cli(['gateway', '--mode', 'careful'], dir)).stderr).toContain(
      '--mode "careful" is not a mode',
    );
  });

  it('prints its usage, and the top-level help lists gateway, pin and init', async () => {
    const dir = await setup();
    for (const command of ['gateway', 'pin', 'init']) {
      const help = await cli([command, '--help'], dir);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: hintgate ${command}`);
    }
    const top = await cli(['--help'], dir);
    for (const command of ['gateway', 'pin', 'init', 'serve']) {
      expect(top.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });
}, 60_000);
