import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLockFile } from '../check/pin/index.js';
import { createGateway, loadGatewayConfig } from '../gateway/index.js';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { clientConfigPaths } from './client-config-paths.js';
import { runCli } from './run-cli.js';
import { captureCli } from './run-cli.test-helpers.js';

// `hintgate init --from claude` on a Claude Desktop configuration of real npm servers, in a
// temporary HOME: it writes hintgate.yaml, checks, probes and pins the servers, and the
// gateway it makes runs verified reads without asking and asks before writes.

const modules = join(dirname(new URL(import.meta.url).pathname), '..', '..', 'node_modules');
const server = (pkg: string, ...args: string[]) => ({
  command: process.execPath,
  args: [join(modules, '@modelcontextprotocol', pkg, 'dist', 'index.js'), ...args],
});

let root: string;
let home: string;
let project: string;
let data: string;
let claudeFile: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hintgate-init-'));
  home = join(root, 'home');
  project = join(root, 'project');
  data = join(root, 'data');
  for (const dir of [home, project, data]) await mkdir(dir, { recursive: true });
  await writeFile(join(data, 'notes.txt'), 'hello from the notes\n');
  // An empty file is an empty SQLite database.
  await writeFile(join(root, 'notes.db'), '');
  const [path] = clientConfigPaths('claude', {
    platform: process.platform,
    home,
    cwd: project,
    env: {},
  });
  claudeFile = path as string;
  await mkdir(dirname(claudeFile), { recursive: true });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const writeClaude = (servers: Record<string, unknown>) =>
  writeFile(claudeFile, JSON.stringify({ mcpServers: servers }, null, 2));

const init = (args: string[]) => {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    APPDATA: join(home, 'AppData', 'Roaming'),
  };
  delete env.XDG_CONFIG_HOME;
  return captureCli(['init', ...args], { env, cwd: project });
};

const line = (stdout: string, outcome: string, tool: string): string | undefined =>
  stdout.split('\n').find((text) => new RegExp(`^  ${outcome} +${tool} `).test(text));

describe('hintgate init --from claude', () => {
  it('makes a gateway of the servers: verified reads run without asking, writes ask, the lock holds the verdicts; run again on a changed configuration it adds the new server and keeps the edits', {
    timeout: 180_000,
  }, async () => {
    await writeClaude({
      filesystem: server('server-filesystem', data),
      memory: { ...server('server-memory'), env: { MEMORY_FILE_PATH: join(root, 'memory.jsonl') } },
      git: {
        command: process.execPath,
        args: [join(modules, '@cyanheads', 'git-mcp-server', 'dist', 'index.js')],
        env: { MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error' },
      },
      sqlite: {
        command: process.execPath,
        args: [join(modules, 'mcp-server-sqlite-npx', 'dist', 'index.js'), join(root, 'notes.db')],
      },
    });
    const first = await init(['--from', 'claude']);
    expect(first.stderr).not.toContain('could not');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `Wrote hintgate.yaml with 4 servers of ${claudeFile}: filesystem, memory, git, sqlite.`,
    );
    expect(first.stdout).toContain('Pinned the tools with their verdicts in hintgate.lock.');
    expect(line(first.stdout, 'runs', 'read_text_file')).toContain(
      'verified read-only by the probe',
    );
    expect(line(first.stdout, 'runs', 'read_graph')).toContain('verified read-only by the probe');
    expect(line(first.stdout, 'asks', 'write_file')).toContain('claims to change something');
    expect(line(first.stdout, 'asks', 'delete_entities')).toBeDefined();
    // git's read-only tools need a repository the sandbox does not have: not verified, so
    // they ask, and say why.
    expect(line(first.stdout, 'asks', 'git_status')).toContain(
      'claims read-only, but the probe could not verify it',
    );
    // The sqlite server's tools carry no annotations: by the spec's defaults they may
    // change anything, the probe calls none of them, and even its SELECT-only read_query
    // asks.
    expect(first.stdout).toContain('sqlite (5 tools): 5 ask\n');
    for (const tool of ['read_query', 'list_tables', 'describe_table', 'write_query']) {
      expect(line(first.stdout, 'asks', tool)).toContain(
        'not verified, so it counts as destructive',
      );
    }
    expect(first.stdout).toContain('"args": ["gateway", "--config", ');
    expect(first.stdout).toContain('"command": "npx", "args": ["-y", "hintgate", "gateway"');

    const configFile = join(project, 'hintgate.yaml');
    const lock = await readLockFile(join(project, 'hintgate.lock'));
    expect(Object.keys(lock.servers).sort()).toEqual(['filesystem', 'git', 'memory', 'sqlite']);
    expect(lock.servers.filesystem?.tools.read_text_file?.verdict).toBe('verified');
    // Pinned as listed; the probe calls only tools that claim to be read-only, so none of
    // these was called and each is inconclusive.
    expect(Object.keys(lock.servers.sqlite?.tools ?? {}).sort()).toEqual([
      'create_table',
      'describe_table',
      'list_tables',
      'read_query',
      'write_query',
    ]);
    expect(lock.servers.sqlite?.tools.read_query?.verdict).toBe('inconclusive');

    // The gateway of that configuration, with a client that approves what it is asked.
    const config = await loadGatewayConfig(configFile);
    const gateway = await createGateway({
      config,
      onNotice: () => {},
      onError: () => {},
      watchPins: false,
    });
    try {
      const client = await connectInMemory(gateway.toolServer, {
        answer: (_params: ElicitRequestFormParams) => ({
          action: 'accept',
          content: { decision: 'allow_once' },
        }),
      });
      const read = (await client.client.callTool({
        name: 'read_text_file',
        arguments: { path: join(data, 'notes.txt') },
      })) as { content: { text?: string }[]; isError?: boolean };
      expect(read.isError).toBeFalsy();
      expect(read.content[0]?.text).toContain('hello from the notes');
      expect(client.forms).toHaveLength(0);

      const write = (await client.client.callTool({
        name: 'write_file',
        arguments: { path: join(data, 'new.txt'), content: 'written through the gateway' },
      })) as { isError?: boolean };
      expect(write.isError).toBeFalsy();
      expect(client.forms).toHaveLength(1);
      expect(await readFile(join(data, 'new.txt'), 'utf8')).toBe('written through the gateway');

      // Each sqlite call asks, the read as much as the writes, and then runs on the database.
      const sql = async (name: string, query: string) =>
        (await client.client.callTool({ name, arguments: { query } })) as {
          content: { text?: string }[];
          isError?: boolean;
        };
      const created = await sql('create_table', 'CREATE TABLE notes (body TEXT)');
      expect(created.isError).toBeFalsy();
      expect(client.forms).toHaveLength(2);
      const inserted = await sql('write_query', "INSERT INTO notes VALUES ('kept in sqlite')");
      expect(inserted.isError).toBeFalsy();
      expect(client.forms).toHaveLength(3);
      const selected = await sql('read_query', 'SELECT body FROM notes');
      expect(selected.isError).toBeFalsy();
      expect(selected.content[0]?.text).toContain('kept in sqlite');
      expect(client.forms).toHaveLength(4);
      await client.close();
    } finally {
      await gateway.close();
    }

    // The person edits the configuration; the client gains a server.
    const edited = (await readFile(configFile, 'utf8'))
      .replace('mode: ask', 'mode: ask # reviewed on Monday')
      .replace(
        `    args: ["${server('server-memory').args[0]}"]\n`,
        (found) => `${found}    concurrency: 2\n`,
      );
    expect(edited).toContain('concurrency: 2');
    await writeFile(configFile, edited);
    await writeClaude({
      filesystem: { ...server('server-filesystem', data), args: ['changed'] },
      memory: server('server-memory'),
      'sequential thinking': server('server-sequential-thinking'),
    });
    // git and sqlite left the client's configuration; hintgate.yaml keeps them (the person
    // decides).
    // Checking again is what the first run showed; here only the configuration is merged.
    const second = await init(['--from', claudeFile, '--no-check']);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(
      'server "sequential thinking" is called "sequential-thinking" here',
    );
    expect(second.stdout).toContain('Added 1 server of');
    expect(second.stdout).toContain(
      'sequential-thinking; kept filesystem, memory as hintgate.yaml has them.',
    );
    const after = await readFile(configFile, 'utf8');
    expect(after.startsWith(edited.replace(/\n# What runs without asking[\s\S]*$/, ''))).toBe(true);
    expect(after).toContain('mode: ask # reviewed on Monday');
    expect(after).toContain('    concurrency: 2\n');
    expect(after).toContain(data);
    const reloaded = await loadGatewayConfig(configFile);
    expect(reloaded.servers.map((s) => s.name)).toEqual([
      'filesystem',
      'memory',
      'git',
      'sqlite',
      'sequential-thinking',
    ]);
    expect(second.stdout).toContain(
      'Before that, run "hintgate check --config hintgate.yaml --probe --write-pin"',
    );
  });

  it('says where it looked when the client has no configuration, and refuses --no-check without --from', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'hintgate-init-none-'));
    try {
      let stderr = '';
      const code = await runCli(['init', '--from', 'cursor'], {
        stdout: () => {},
        stderr: (text) => {
          stderr += text;
        },
        env: { HOME: empty },
        cwd: empty,
      });
      expect(code).toBe(2);
      expect(stderr).toContain('no Cursor configuration found; looked for ');
      expect(stderr).toContain(join(empty, '.cursor', 'mcp.json'));
      expect(existsSync(join(empty, 'hintgate.yaml'))).toBe(false);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    const noCheck = await init(['--no-check']);
    expect(noCheck.code).toBe(2);
    expect(noCheck.stderr).toContain('--no-check goes with --from');
  });
});
