// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HintgateError } from '../../errors/hintgate-error.js';
import {
  FIXTURE_ENV,
  FIXTURES_DIR,
  fixtureNames,
  INVALID_FIXTURES,
} from './config-fixtures.test-helpers.js';
import {
  type LoadGatewayConfigOptions,
  loadGatewayConfig,
  parseGatewayConfigText,
} from './load-gateway-config.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-gateway-config-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

/** The message of the HintgateError `promise` rejects with, checked to have `code`. */
async function failure(promise: Promise<unknown>, code = 'invalid_config'): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(HintgateError);
  expect((error as HintgateError).code).toBe(code);
  return (error as Error).message;
}

const load = (file: string, options: LoadGatewayConfigOptions = { env: FIXTURE_ENV }) =>
  loadGatewayConfig(file, options);

describe('loadGatewayConfig', () => {
  it('loads a full hintgate.yaml: env expanded, paths beside the file, overrides kept', async () => {
    const file = join(dir, 'hintgate.yaml');
    await copyFile(join(FIXTURES_DIR, 'valid', 'full.yaml'), file);
    const config = await load(file);
    expect(config).toEqual({
      file,
      directory: dir,
      servers: [
        {
          name: 'github',
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_fixture', LOG_LEVEL: 'info' },
          cwd: join(dir, 'work'),
          trusted: true,
          concurrency: 4,
          tools: {
            create_issue: {
              annotations: {
                title: 'Create an issue',
                readOnlyHint: false,
                destructiveHint: false,
              },
              resources: ['repo:{owner}/{repo}'],
              rateLimit: { max: 5, windowMs: 60000, maxWaitMs: 0 },
              timeoutMs: 30000,
            },
            delete_repository: { disabled: true },
          },
        },
        {
          name: 'docs',
          transport: 'http',
          url: 'https://api.example.com/mcp',
          headers: { Authorization: 'Bearer ghp_fixture' },
          trusted: false,
          tools: {},
        },
      ],
      mode: 'auto',
      rules: [
        { tool: 'github_*', key: 'repo:acme/*', decision: 'ask', reason: 'company repositories' },
      ],
      audit: {
        path: join(dir, 'logs', 'audit.jsonl'),
        arguments: true,
        sync: 'batched',
        maxSyncDelayMs: 20,
      },
      approvals: { path: join(dir, 'state', 'approvals.json') },
      pin: { path: join(dir, 'pins', 'hintgate.lock'), newTools: 'allow' },
      downstream: { http: { host: '127.0.0.1', port: 3100, token: 'fixture-token-0123' } },
    });
    expect(Object.isFrozen(config.servers[0]?.tools)).toBe(true);
    expect(Object.isFrozen(config.audit)).toBe(true);
  });

  it('puts state beside the file by default and starts servers in its directory', async () => {
    await mkdir(join(dir, 'project'));
    const file = await write(
      'project/hintgate.yaml',
      'servers:\n  local: { command: ./bin/server.js, args: [--flag] }\n  global: { command: npx }\n',
    );
    const config = await load(file);
    const project = join(dir, 'project');
    expect(config.audit).toEqual({
      path: join(project, '.hintgate', 'audit.jsonl'),
      arguments: false,
      sync: 'auto',
      maxSyncDelayMs: 50,
    });
    expect(config.approvals.path).toBe(join(project, '.hintgate', 'approvals.json'));
    expect(config.pin).toEqual({ path: join(project, 'hintgate.lock'), newTools: 'pending' });
    expect(config.downstream).toEqual({});
    expect(config.rules).toEqual([]);
    expect(config.mode).toBeUndefined();
    expect(config.servers).toMatchObject([
      { name: 'local', command: join(project, 'bin', 'server.js'), cwd: project, trusted: false },
      { name: 'global', command: 'npx', cwd: project },
    ]);
  });

  it('reads audit.sync auto, always and batched, auto when absent, and names the choices for another', async () => {
    const servers = 'servers: { a: { command: npx } }\n';
    for (const sync of ['auto', 'always', 'batched'] as const) {
      const file = await write(`${sync}.yaml`, `${servers}audit: { sync: ${sync} }\n`);
      expect((await load(file)).audit.sync).toBe(sync);
    }
    const absent = await write('absent.yaml', `${servers}audit: { arguments: true }\n`);
    expect((await load(absent)).audit.sync).toBe('auto');
    const bad = await write('bad.yaml', `${servers}audit:\n  sync: true\n`);
    expect(await failure(load(bad))).toBe(
      `${bad}:3:3: audit.sync is true; use one of auto, always, batched.`,
    );
  });

  it('reads audit.rotate by size, by day or both, absent when not given, and says what to fix', async () => {
    const servers = 'servers: { a: { command: npx } }\n';
    const sized = await write(
      'sized.yaml',
      `${servers}audit:\n  rotate: { maxBytes: 10000000, keep: 3 }\n`,
    );
    expect((await load(sized)).audit.rotate).toEqual({ maxBytes: 10_000_000, keep: 3 });
    const daily = await write('daily.yaml', `${servers}audit:\n  rotate:\n    daily: true\n`);
    expect((await load(daily)).audit.rotate).toEqual({ daily: true });
    const absent = await write('absent.yaml', `${servers}audit: { sync: always }\n`);
    expect((await load(absent)).audit).not.toHaveProperty('rotate');
    const small = await write('small.yaml', `${servers}audit:\n  rotate: { maxBytes: "10MB" }\n`);
    expect(await failure(load(small))).toBe(
      `${small}:3:13: audit.rotate.maxBytes is "10MB"; use a whole number of bytes, at least 1024 (10 MB: 10000000).`,
    );
    const never = await write('never.yaml', `${servers}audit:\n  rotate: { keep: 3 }\n`);
    expect(await failure(load(never))).toBe(
      `${never}:3:3: audit.rotate says no time to rotate; add maxBytes (such as 10000000), daily: true, or both.`,
    );
    const typo = await write('typo.yaml', `${servers}audit:\n  rotate: { every: day }\n`);
    expect(await failure(load(typo))).toContain('audit.rotate.every');
  });

  it('keeps absolute paths and the file order of servers whose names are numbers', async () => {
    const file = await write(
      'hintgate.yaml',
      'servers:\n  zeta: { command: a }\n  "10": { command: b }\n  "2": { command: c }\naudit: { path: /var/log/hg.jsonl }\n',
    );
    const config = await load(file);
    expect(config.servers.map((server) => server.name)).toEqual(['zeta', '10', '2']);
    expect(config.audit.path).toBe('/var/log/hg.jsonl');
  });

  it('reads enabled in a tool override as the inverse of disabled, and refuses the two disagreeing', async () => {
    const file = await write(
      'hintgate.yaml',
      'servers:\n  a:\n    command: npx\n    tools:\n      off: { enabled: false, timeoutMs: 500 }\n      on: { enabled: true }\n',
    );
    const config = await load(file);
    expect(config.servers[0]?.tools).toEqual({
      off: { disabled: true, timeoutMs: 500 },
      on: { disabled: false },
    });
    const both = await write(
      'both.yaml',
      'servers:\n  a:\n    command: npx\n    tools:\n      x: { enabled: true, disabled: true }\n',
    );
    expect(await failure(load(both))).toContain('keep one of them');
  });

  it('accepts a Claude Desktop, a Cursor and a VS Code configuration as they are', async () => {
    for (const name of ['claude-desktop.json', 'cursor.json', 'vscode-mcp.json']) {
      const file = join(dir, name);
      await copyFile(join(FIXTURES_DIR, 'valid', name), file);
      const config = await load(file);
      expect(config.servers.length).toBeGreaterThan(0);
    }
    // Keys other clients write (Claude Desktop's globalShortcut; Cline's disabled, autoApprove
    // and alwaysAllow): accepted; a disabled server is left out.
    const cline = await load(join(FIXTURES_DIR, 'valid', 'cline-extras.json'));
    expect(cline.servers.map((server) => server.name)).toEqual(['memory']);
    const none = await write(
      'none.json',
      '{ "mcpServers": { "a": { "command": "npx", "disabled": true } } }',
    );
    expect(await failure(load(none))).toContain(
      'mcpServers has every server disabled (disabled: true); turn at least one on',
    );
    const wrong = await write(
      'wrong.json',
      '{ "mcpServers": { "a": { "command": "npx", "disabled": "yes", "autoApprove": "all" } } }',
    );
    const message = await failure(load(wrong));
    expect(message).toContain('mcpServers.a.disabled is "yes"');
    expect(message).toContain(
      'mcpServers.a.autoApprove is "all"; another client\'s list of tool names, which hintgate ignores',
    );
    const vscode = await load(join(dir, 'vscode-mcp.json'));
    expect(vscode.servers).toMatchObject([
      { name: 'memory', transport: 'stdio', command: 'npx' },
      { name: 'api', transport: 'http', headers: { 'X-Api-Key': 'ghp_fixture' } },
    ]);
  });

  it('loads every valid fixture and rejects every invalid one with file, line, column and the fix', async () => {
    for (const name of fixtureNames('valid')) {
      await expect(load(join(FIXTURES_DIR, 'valid', name))).resolves.toBeDefined();
    }
    const invalid = fixtureNames('invalid');
    expect(invalid).toEqual(Object.keys(INVALID_FIXTURES).sort());
    for (const name of invalid) {
      const message = await failure(load(join(FIXTURES_DIR, 'invalid', name)));
      expect(message.split('\n')).toContain(
        `${join(FIXTURES_DIR, 'invalid', name)}:${INVALID_FIXTURES[name]}`,
      );
    }
  });

  it('lists every problem at once, in file order, config and rule problems together', async () => {
    const file = await write(
      'hintgate.yaml',
      [
        'servers:',
        '  a:',
        '    command: npx',
        '    trust: true',
        'rules:',
        '  - decision: block',
        'pinn: {}',
      ].join('\n'),
    );
    const message = await failure(loadGatewayConfig(file, { env: {} }));
    expect(message).toBe(
      [
        `${file}:4:5: servers.a.trust is not a server key; did you mean "trusted"?`,
        `${file}:6:5: rules[0].decision is "block"; use one of allow, ask, deny.`,
        `${file}:7:1: pinn is not a hintgate configuration key; did you mean "pin"?`,
      ].join('\n'),
    );
  });

  it('says where a top-level key belongs when it is put at the top level', async () => {
    const file = await write('hintgate.yaml', 'servers: { a: { command: npx } }\nport: 3000\n');
    expect(await failure(load(file))).toBe(
      `${file}:2:1: port is not a top-level key; "port" belongs under downstream.http.`,
    );
  });

  it('expands environment variable references from process.env by default and names unset variables', async () => {
    const variable = `HINTGATE_CONFIG_TEST_${process.pid}`;
    const file = await write(
      'hintgate.yaml',
      `servers:\n  a:\n    command: npx\n    env: { KEY: "\${${variable}}", PRICE: "$\${literal}" }\n`,
    );
    process.env[variable] = 'from-process-env';
    try {
      const config = await loadGatewayConfig(file);
      expect(config.servers[0]).toMatchObject({
        env: { KEY: 'from-process-env', PRICE: `\${literal}` },
      });
    } finally {
      delete process.env[variable];
    }
    expect(await failure(loadGatewayConfig(file))).toBe(
      `${file}:4:12: servers.a.env.KEY uses \${${variable}}, which is not set; set ${variable} in the environment hintgate runs in, or give a default, as in \${${variable}:-value}.`,
    );
  });

  it('expands references in command, args and cwd too, and reports VS Code variables there', async () => {
    const file = await write(
      'hintgate.yaml',
      `servers:\n  a:\n    command: "\${BIN}"\n    args: ["--root", "\${DATA}/notes", "$\${kept}"]\n    cwd: "\${DATA}"\n`,
    );
    const config = await load(file, { env: { BIN: 'node', DATA: '/srv/data' } });
    expect(config.servers[0]).toMatchObject({
      command: 'node',
      args: ['--root', '/srv/data/notes', `\${kept}`],
      cwd: '/srv/data',
    });

    const copied = await write(
      'vscode.json',
      JSON.stringify({
        servers: { fs: { command: 'npx', args: ['-y', 'fs', `\${workspaceFolder}`] } },
      }),
    );
    const message = await failure(load(copied, { env: {} }));
    expect(message).toContain(`servers.fs.args[2] uses \${workspaceFolder}, which is not set`);
    expect(message).toContain('a VS Code variable, which hintgate does not fill in');
  });

  it('reads the session limits of downstream.http under the names the HTTP server takes', async () => {
    const file = await write(
      'hintgate.yaml',
      'servers: { a: { url: "https://x.test/mcp" } }\ndownstream: { http: { sessions: { max: 500, perClient: 100, idleMs: 60000, uninitializedMs: 2000 } } }\n',
    );
    expect((await load(file)).downstream.http?.sessions).toEqual({
      maxSessions: 500,
      maxSessionsPerClient: 100,
      sessionIdleMs: 60_000,
      uninitializedSessionMs: 2000,
    });
    const partial = await write(
      'partial.yaml',
      'servers: { a: { url: "https://x.test/mcp" } }\ndownstream: { http: { sessions: { max: 200 } } }\n',
    );
    expect((await load(partial)).downstream.http?.sessions).toEqual({ maxSessions: 200 });
    for (const bad of ['max: 0', 'perClient: 1.5', 'uninitializedMs: 600001', 'idle: 5']) {
      const wrong = await write(
        'wrong.yaml',
        `servers: { a: { url: "https://x.test/mcp" } }\ndownstream: { http: { sessions: { ${bad} } } }\n`,
      );
      expect(await failure(load(wrong))).toContain('downstream.http.sessions');
    }
  });

  it('never repeats a token in its messages', async () => {
    const file = await write(
      'hintgate.yaml',
      `servers: { a: { url: "https://x.test/mcp" } }\ndownstream: { http: { token: "\${T}" } }\n`,
    );
    const message = await failure(load(file, { env: { T: 's3cr' } }));
    expect(message).toContain('downstream.http.token is 4 characters long');
    expect(message).not.toContain('s3cr');
  });

  it('reports a missing file, a directory, an empty file and a file of comments', async () => {
    const missing = join(dir, 'nope.yaml');
    expect(await failure(load(missing))).toBe(
      `Gateway configuration not found: ${missing}. Create it (run "hintgate init" for a commented starter), or pass the right path.`,
    );
    expect(await failure(load(dir))).toContain('is a directory, not a configuration file');
    const empty = await write('empty.yaml', '  \n');
    expect(await failure(load(empty))).toContain(`${empty}: the file is empty;`);
    const comments = await write('comments.yaml', '# servers:\n#   a: { command: npx }\n');
    expect(await failure(load(comments))).toContain(`${comments}: the file has only comments;`);
  });

  it('reports YAML and JSON syntax errors and duplicate keys with their position', async () => {
    const yaml = await write('bad.yaml', 'servers:\n  a: { command: npx\n');
    expect(await failure(load(yaml))).toMatch(new RegExp(`^${yaml}:\\d+:\\d+: YAML syntax error`));
    const json = await write(
      'bad.json',
      '{\n  "mcpServers": {\n    "a": { "command": "npx", }\n  }\n}\n',
    );
    expect(await failure(load(json))).toBe(
      `${json}:3:30: JSON syntax error: expected a key in double quotes but found "}".`,
    );
    const twice = await write(
      'twice.json',
      '{ "servers": {}, "servers": { "a": { "command": "x" } } }',
    );
    expect(await failure(load(twice))).toContain(`${twice}:1:18: JSON syntax error:`);
  });

  it('rejects a path that is not a non-empty string', async () => {
    expect(await failure(loadGatewayConfig(''), 'invalid_option')).toContain('non-empty string');
  });

  it('reads through the injected readFile', async () => {
    const config = await loadGatewayConfig('/virtual/hintgate.yaml', {
      readFile: async () => 'servers: { a: { command: npx } }',
      env: {},
    });
    expect(config.directory).toBe('/virtual');
    expect(config.servers[0]).toMatchObject({ cwd: '/virtual' });
  });
});

describe('schema problems of a oneOf: only the branch the value was meant for', () => {
  const problems = (text: string): string[] => {
    try {
      parseGatewayConfigText(text, 'hintgate.yaml', { env: {} });
    } catch (error) {
      return (error as Error).message.split('\n');
    }
    throw new Error('the configuration loaded');
  };

  it("reports a rule's glob syntax without hiding what the schema finds in the same rule", () => {
    const text = [
      'servers:',
      '  local: { command: npx }',
      'rules:',
      '  - tool: "["',
      '    decision: deny',
      '    priority: x',
    ];
    const lines = problems(text.join('\n'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^hintgate\.yaml:4:\d+: rules\[0\]\.tool is "\[": the "\[" at character 1 is never closed/,
      ),
      expect.stringMatching(/^hintgate\.yaml:6:\d+: rules\[0\]\.priority is "x"/),
    ]);
  });

  it('reports a wrong field of a stdio server entry alone, with line and column, and no missing "url"', () => {
    const text = ['servers:', '  local:', '    command: npx', '    args: -y', '    cwdd: ./x'];
    expect(problems(text.join('\n'))).toEqual([
      'hintgate.yaml:4:5: servers.local.args is "-y"; use a list of strings, such as ["-y", "some-mcp-server"].',
      'hintgate.yaml:5:5: servers.local.cwdd is not a server key; did you mean "cwd"?',
    ]);
  });

  it('takes the branch a stated type names, and the settings branch for a mapping where true also fits', () => {
    const text = [
      'servers:',
      '  remote:',
      '    type: http',
      '    url: https://example.com/mcp',
      '    headers: 5',
      'console:',
      '  port: "7777"',
    ];
    expect(problems(text.join('\n'))).toEqual([
      'hintgate.yaml:5:5: servers.remote.headers is 5; use a mapping of header names to strings, as in { Authorization: "Bearer ${TOKEN}" }.',
      'hintgate.yaml:7:3: console.port is "7777"; use an integer from 0 to 65535 (0 picks a free port) without quotes.',
    ]);
  });

  it('says what is missing when no branch fits, and what kind of value goes where none takes it', () => {
    const text = ['servers:', '  a:', '    args: []', 'state: 5', 'telemetry: [1]'];
    expect(problems(text.join('\n'))).toEqual([
      'hintgate.yaml:2:3: servers.a says neither "command" nor "url"; add "command" (with optional args, env, cwd) for a server run over stdio, or "url" (with optional headers) for Streamable HTTP.',
      'hintgate.yaml:4:1: state is 5; write "redis://127.0.0.1:6379" or { url: "redis://redis:6379", secret: "${HINTGATE_STATE_SECRET}" }.',
      'hintgate.yaml:5:1: telemetry is a list; use true, false, or settings as in { endpoint: "http://otel-collector:4318" }.',
    ]);
  });
});
