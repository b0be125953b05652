import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLockFile } from '../check/pin/index.js';
import {
  codeScanningProblems,
  sarifSchemaErrors,
} from '../check/report/sarif-schema.test-helpers.js';
import { startHttpFixture } from '../mcp/client/fixtures/fixtures.test-helpers.js';
import { nodeScriptArgs } from '../testing/index.js';
import { serverNameOf } from './parse-check-args.js';
import { runCli } from './run-cli.js';
import { captureCli } from './run-cli.test-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Servers run in a sandbox directory: the arguments resolve from anywhere.
const fixture = (name: string): string[] => [
  process.execPath,
  ...nodeScriptArgs(join(ROOT, 'src', 'check', 'fixtures', `${name}.ts`)),
];
const EVERYTHING = [
  process.execPath,
  join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'),
  'stdio',
];
/**
 * server-everything started so that it exits once its stdin ends (see
 * `gateway/fixtures/everything-stdio.ts`), for a check process that is timed to its exit:
 * alone, the server outlives its client by the 2 s grace before SIGTERM.
 */
const EVERYTHING_EXITING = [
  process.execPath,
  ...nodeScriptArgs(join(ROOT, 'src', 'gateway', 'fixtures', 'everything-stdio.ts')),
];

const capture = (args: string[], cwd?: string) =>
  captureCli(['check', ...args], cwd === undefined ? {} : { cwd });

const yamlServer = (name: string, commandLine: readonly string[]): string =>
  [
    `  ${name}:`,
    `    command: ${JSON.stringify(commandLine[0])}`,
    `    args: ${JSON.stringify(commandLine.slice(1))}`,
    '    env: { TSX_DISABLE_CACHE: "1" }',
  ].join('\n');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-check-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A fresh directory with a hintgate.yaml of the given servers. */
const project = async (name: string, servers: Record<string, readonly string[]>) => {
  const path = join(dir, name);
  await rm(path, { recursive: true, force: true });
  await mkdir(path, { recursive: true });
  const text = [
    '# servers to check',
    'servers:',
    ...Object.entries(servers).map(([n, c]) => yamlServer(n, c)),
    '',
  ].join('\n');
  await writeFile(join(path, 'hintgate.yaml'), text);
  return path;
};

describe('hintgate check: options', () => {
  it('documents every option in --help, and is listed in hintgate --help', async () => {
    const { code, stdout } = await capture(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--config',
      '--url',
      '--header',
      '--name',
      '--probe',
      '--allow-writes',
      '--fixtures',
      '--pass-env',
      '--json',
      '--sarif',
      '--fail-on',
      '--write-pin',
      '--min-severity',
      '--quiet',
      '--isolation',
      '--install-timeout',
      '--no-host-cache',
      'Exit status',
      'docs/check.md',
    ]) {
      expect(stdout).toContain(flag);
    }
    let top = '';
    await runCli(['--help'], { stdout: (t) => (top += t), stderr: () => {} });
    expect(top).toMatch(/\n {2}check {11}Lint servers' tool annotations/);
  });

  it.each([
    [['--allow-writes', '--', 'node', 's.js'], '--allow-writes only applies with --probe'],
    [['--fixtures', 'f.yaml'], '--fixtures only applies with --probe'],
    [['--json', '--sarif'], 'give --json or --sarif, not both'],
    [
      ['--fail-on', 'critical'],
      '--fail-on "critical" is not a severity; use one of low, medium, high, none',
    ],
    [
      ['--config', 'a.yaml', '--url', 'http://x/mcp'],
      'give one of --config, --url and -- COMMAND, not --config and --url',
    ],
    [['--url', 'http://x/mcp', '--', 'node'], 'not --url and -- COMMAND'],
    [['--'], '"--" must be followed by the command that starts the server'],
    [['--header', 'A: b'], '--header only applies with --url'],
    [['--url', 'http://x/mcp', '--header', 'no colon'], '--header "no colon" is not "Name: value"'],
    [['--url', 'ftp://x/mcp'], '--url "ftp://x/mcp" is not an http(s) URL'],
    [['--url', 'nope'], '--url "nope" is not a URL'],
    [['--name', 'x'], '--name only applies with --url or -- COMMAND'],
    [['--name', 'a b', '--', 'node'], '--name "a b" is not a server name'],
    [['--write-pin'], '--write-pin records probe verdicts, so it needs --probe'],
    [
      ['--probe', '--write-pin', '--', 'node', 's.js'],
      '--write-pin writes the pin file of a configuration',
    ],
    [['--pass-env', '1X'], '--pass-env "1X" is not an environment variable name'],
    [['--frob'], 'unknown option "--frob"'],
    [['--fail-on'], 'option "--fail-on" needs a value'],
    [['extra'], 'unexpected argument "extra"'],
    [
      ['--min-severity', 'urgent'],
      '--min-severity "urgent" is not a severity; use one of low, medium, high',
    ],
    [['--quiet', '--json'], '--quiet only shapes the table'],
    [['--min-severity', 'low', '--sarif'], '--min-severity only shapes the table'],
    [['--isolation', 'docker'], '--isolation "docker" is not one of auto, bubblewrap, none'],
    [['--install-timeout', '0'], '--install-timeout "0" is not a positive number of seconds'],
  ])('%j: one line, exit code 2', async (args, message) => {
    const { code, stdout, stderr } = await capture(args, dir);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.startsWith('hintgate check: ')).toBe(true);
    expect(stderr).toContain(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('without a target, needs ./hintgate.yaml; a bad configuration or fixtures file is exit 2', async () => {
    const none = await capture([], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'hintgate.yaml: give --config FILE, --url URL or -- COMMAND ARGS...',
    );
    await writeFile(join(dir, 'bad.yaml'), 'servers:\n  x:\n    comand: node\n');
    const bad = await capture(['--config', 'bad.yaml'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.yaml:3');
    const path = await project('fixtures-missing', { honest: fixture('honest-server') });
    const fixtures = await capture(['--probe', '--fixtures', 'none.yaml'], path);
    expect(fixtures.code).toBe(2);
    expect(fixtures.stderr).toContain('none.yaml');
  });

  it.each([
    [['npx', '-y', '@modelcontextprotocol/server-everything'], 'server-everything'],
    [['npx', '-y', '@scope/pkg@1.2.3', '--flag'], 'pkg'],
    [['node', '--import', 'tsx', './dist/my.server.js'], 'my-server'],
    [
      ['node', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'],
      'server-everything',
    ],
    [['node', 'dist/index.js'], 'index'],
    [['uvx', 'mcp-server-fetch'], 'mcp-server-fetch'],
    [['docker', 'run', '-i', '--rm', 'ghcr.io/org/img:1'], 'img'],
    [['/usr/local/bin/notes-mcp', '--root', '.'], 'notes-mcp'],
    [['node'], 'node'],
  ])('names the server of %j %s', (commandLine, name) => {
    const [command = '', ...args] = commandLine;
    expect(serverNameOf(command, args)).toBe(name);
  });
});

describe('hintgate check: lint', { timeout: 60_000 }, () => {
  it('lints one server command: low findings pass --fail-on high and fail --fail-on low', async () => {
    const table = await capture(['--', ...fixture('log-appender')]);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    const script = basename(fixture('log-appender').at(-1) ?? '');
    expect(lines[0]).toMatch(
      /^hintgate check of .*log-appender\.(?:ts|mjs): 1 server, 1 tool; lint$/,
    );
    expect(lines[0]).toContain(`${script}: 1 server`);
    expect(table.stdout).toMatch(/\nlog-appender \(1 tool\): \d+ findings\n/);
    // Low findings are folded by default: counted, named by rule, not shown in full.
    expect(table.stdout).not.toMatch(/\n {2}low +title-missing +search_notes\n/);
    expect(table.stdout).toMatch(
      /\n {2}\+ \d+ lower findings? folded \(low: [^)]*title-missing[^)]*\); --min-severity low shows them\n/,
    );
    expect(table.stdout).not.toContain('probe-');
    expect(lines.at(-2)).toMatch(/; 0 at or above --fail-on high: exit 0\.$/);
    const all = await capture(['--min-severity', 'low', '--', ...fixture('log-appender')]);
    expect(all.stdout).toMatch(/\n {2}low +title-missing +search_notes\n/);
    expect(all.stdout).not.toContain('folded');

    const strict = await capture([
      '--fail-on',
      'low',
      '--name',
      'notes',
      '--',
      ...fixture('log-appender'),
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/\nnotes \(1 tool\)/);
    expect(strict.stdout).toMatch(/\n! low +title-missing +search_notes\n/);
    expect(strict.stdout.trimEnd()).toMatch(/at or above --fail-on low: exit 1\.$/);
  });

  it('lints server-everything and prints the JSON shape', async () => {
    const { code, stdout } = await capture(['--json', '--fail-on', 'none', '--', ...EVERYTHING]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json).toMatchObject({
      version: 1,
      target: { kind: 'command', command: process.execPath },
      probe: false,
      failOn: 'none',
      exitCode: 0,
      verdicts: [],
      pin: null,
    });
    expect(json.hintgate).toMatch(/^\d+\.\d+\.\d+/);
    expect(json.servers).toHaveLength(1);
    expect(json.servers[0]).toMatchObject({ name: 'server-everything', status: 'checked' });
    expect(json.servers[0].tools).toContain('echo');
    expect(json.summary.tools).toBe(json.servers[0].tools.length);
    for (const finding of json.findings) {
      expect(finding).toMatchObject({ kind: 'lint', server: 'server-everything', failing: false });
      expect(typeof finding.fix).toBe('string');
    }
  });

  it('lints a Streamable HTTP server given by --url, with --header', async () => {
    const server = await startHttpFixture({ token: 'fixture-secret' });
    try {
      const refused = await capture(['--url', server.url]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('Could not connect to MCP server "127-0-0-1"');
      const { code, stdout } = await capture([
        '--json',
        '--fail-on',
        'none',
        '--url',
        server.url,
        '--header',
        'x-fixture-token: fixture-secret',
        '--name',
        'remote',
      ]);
      expect(code).toBe(0);
      const json = JSON.parse(stdout);
      expect(json.target).toEqual({ kind: 'url', url: server.url });
      expect(json.servers[0]).toMatchObject({ name: 'remote', status: 'checked' });
      expect(json.servers[0].tools.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });

  it('reports a server that cannot start with its stderr tail, checks the others, exits 3', async () => {
    const path = await project('broken', {
      honest: fixture('honest-server'),
      broken: [process.execPath, '-e', 'console.error("broken: missing API_KEY"); process.exit(4)'],
    });
    const { code, stdout, stderr } = await capture([], path);
    expect(code).toBe(3);
    expect(stderr).toContain('hintgate check: Could not connect to MCP server "broken"');
    expect(stderr).toContain('broken: missing API_KEY');
    expect(stdout).toMatch(/\nhonest \(\d+ tools\)/);
    expect(stdout).toContain('\nbroken: NOT CHECKED. Could not connect to MCP server "broken"');
    expect(stdout.trimEnd()).toMatch(/1 server not checked: exit 3\.$/);
  });

  it('gives a linted server a temp HOME, PATH and --pass-env variables, not the rest', async () => {
    const path = await project('home', {
      home: [
        process.execPath,
        '-e',
        'for (const v of ["HOME", "CHECK_PASSED", "CHECK_KEPT"]) console.error(v + "=" + process.env[v]); process.exit(1)',
      ],
    });
    process.env.CHECK_PASSED = 'passed';
    process.env.CHECK_KEPT = 'kept';
    let stderr: string;
    try {
      ({ stderr } = await capture(['--pass-env', 'CHECK_PASSED'], path));
    } finally {
      delete process.env.CHECK_PASSED;
      delete process.env.CHECK_KEPT;
    }
    expect(stderr).toMatch(/^\s*CHECK_PASSED=passed$/m);
    expect(stderr).toMatch(/^\s*CHECK_KEPT=undefined$/m);
    const home = /^\s*HOME=(\S+)$/m.exec(stderr)?.[1];
    expect(home).toBeDefined();
    expect(home).not.toBe(homedir());
    expect(home?.startsWith(await realpath(tmpdir()))).toBe(true);
  });

  it('gives a server that hangs at start --connect-timeout, and says how to give it more', async () => {
    const started = performance.now();
    const { code, stdout } = await capture([
      '--connect-timeout',
      '0.5',
      '--',
      process.execPath,
      '-e',
      'setInterval(() => {}, 1000)',
    ]);
    expect(code).toBe(3);
    expect(stdout).toContain('raise it with --connect-timeout 60');
    expect(stdout).not.toContain('connectTimeoutMs');
    expect(performance.now() - started).toBeLessThan(10_000);
    const bad = await capture(['--connect-timeout', 'soon', '--', 'node', 's.js']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--connect-timeout "soon" is not a positive number of seconds.');
  });

  it('says which host directories of a server command the sandbox replaced, lint and probe', async () => {
    const host = join(dir, 'host-root');
    await mkdir(host, { recursive: true });
    const filesystem = [
      process.execPath,
      join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'),
      host,
    ];
    const lint = await capture(['--fail-on', 'none', '--', ...filesystem]);
    expect(lint.stdout).toContain(
      `\n  run with the sandbox's work directory in place of ${host}\n`,
    );
    const probed = await capture(['--probe', '--json', '--fail-on', 'none', '--', ...filesystem]);
    expect(JSON.parse(probed.stdout).servers[0].replacedDirectories).toEqual([host]);
  });
});

// Each test starts servers several times (probe, pin, check): allow more than the default.
describe('hintgate check: probe, SARIF and pins', { timeout: 60_000 }, () => {
  let path: string;
  beforeAll(async () => {
    path = await project('probe', {
      honest: fixture('honest-server'),
      liar: fixture('log-appender'),
    });
  });

  it('probes every configured server: the read-only liar is a high finding and exit 1', async () => {
    const { code, stdout, stderr } = await capture(['--probe'], path);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout.split('\n')[0]).toBe(
      `hintgate check of hintgate.yaml: 2 servers, ${stdout.match(/(\d+) tools;/)?.[1]} tools; lint, probe (reads only)`,
    );
    expect(stdout).toMatch(/\n! high +probe-read-only-writes-files +search_notes\n/);
    expect(stdout).toMatch(/\n {2}liar +search_notes +violation +/);
    expect(stdout).toMatch(/\n {2}honest +read_note +verified +/);
    expect((await capture(['--probe', '--fail-on', 'none'], path)).code).toBe(0);
  });

  it('prints SARIF 2.1.0 that validates and that code scanning can place in hintgate.yaml', async () => {
    const { code, stdout } = await capture(['--probe', '--sarif'], path);
    expect(code).toBe(1);
    const log = JSON.parse(stdout);
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(codeScanningProblems(log)).toEqual([]);
    const [run] = log.runs;
    const ids = run.tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'annotations-missing',
        'probe-read-only-writes-files',
        'pin-changed',
      ]),
    );
    const violation = run.results.find(
      (result: { ruleId: string }) => result.ruleId === 'probe-read-only-writes-files',
    );
    expect(violation.level).toBe('error');
    expect(ids[violation.ruleIndex]).toBe('probe-read-only-writes-files');
    // "liar:" is line 7 of the file project() writes, indented two spaces.
    expect(violation.locations[0]).toEqual({
      physicalLocation: {
        artifactLocation: { uri: 'hintgate.yaml', uriBaseId: '%SRCROOT%' },
        region: { startLine: 7, startColumn: 3 },
      },
      logicalLocations: [
        { name: 'search_notes', fullyQualifiedName: 'liar/search_notes', kind: 'function' },
      ],
    });
    const verdicts = run.invocations[0].properties.verdicts;
    expect(verdicts).toContainEqual(
      expect.objectContaining({ server: 'liar', tool: 'search_notes', verdict: 'violation' }),
    );
    const again = JSON.parse((await capture(['--probe', '--sarif'], path)).stdout);
    expect(
      again.runs[0].results.map((r: { partialFingerprints: object }) => r.partialFingerprints),
    ).toEqual(run.results.map((r: { partialFingerprints: object }) => r.partialFingerprints));
  });

  it('--write-pin records the verdicts with the pins, as hintgate pin would pin the tools', async () => {
    const { code, stdout } = await capture(['--probe', '--write-pin', '--json'], path);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).pin).toEqual({ file: 'hintgate.lock', changed: true });
    const lock = await readLockFile(join(path, 'hintgate.lock'));
    expect(lock.servers.liar?.tools.search_notes?.verdict).toBe('violation');
    expect(lock.servers.honest?.tools.read_note?.verdict).toBe('verified');
    expect(Object.keys(lock.servers.honest?.tools ?? {})).toContain('delete_note');

    // The gateway's own pinning sees the very definitions pinned, verdicts kept.
    let pinned = '';
    expect(
      await runCli(['pin'], { stdout: (t) => (pinned += t), stderr: () => {}, env: {}, cwd: path }),
    ).toBe(0);
    expect(pinned).toContain('honest: ');
    expect(pinned).toMatch(/Up to date: hintgate\.lock/);
    const after = await readLockFile(join(path, 'hintgate.lock'));
    expect(after).toEqual(lock);

    // With the pin file, the lint reports no pin findings: every tool is pinned as listed.
    const table = await capture(['--fail-on', 'low'], path);
    expect(table.stdout).not.toMatch(/pin-(new|changed)/);
    expect(table.stdout.split('\n')[0]).toMatch(/; lint$/);
  });

  it('reports tools changed since they were pinned; a hint toward less caution is high', async () => {
    const tools = join(dir, 'tools.json');
    const definition = (readOnlyHint: boolean) => [
      {
        name: 'lookup',
        title: 'Look up',
        description: 'Looks a word up.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        annotations: {
          readOnlyHint,
          openWorldHint: false,
          idempotentHint: true,
          destructiveHint: false,
        },
      },
    ];
    await writeFile(tools, JSON.stringify(definition(false)));
    const pinned = join(dir, 'pinned');
    await rm(pinned, { recursive: true, force: true });
    await mkdir(pinned);
    await writeFile(
      join(pinned, 'hintgate.yaml'),
      `servers:\n  words:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify(nodeScriptArgs(join(ROOT, 'src', 'testing', 'fixture-server-process.ts')))}\n    env: { FIXTURE_TOOLS_FILE: ${JSON.stringify(tools)}, TSX_DISABLE_CACHE: "1" }\n`,
    );
    expect(
      await runCli(['pin'], { stdout: () => {}, stderr: () => {}, env: {}, cwd: pinned }),
    ).toBe(0);
    expect((await capture([], pinned)).code).toBe(0);

    await writeFile(tools, JSON.stringify(definition(true)));
    const { code, stdout } = await capture(['--json'], pinned);
    expect(code).toBe(1);
    const findings = JSON.parse(stdout).findings.filter((f: { kind: string }) => f.kind === 'pin');
    expect(findings.map((f: { id: string; severity: string }) => [f.id, f.severity])).toEqual([
      ['pin-less-caution', 'high'],
      ['pin-changed', 'medium'],
    ]);
    expect(findings[0]).toMatchObject({ server: 'words', tool: 'lookup', failing: true });
    expect(await readFile(join(pinned, 'hintgate.lock'), 'utf8')).toContain(
      '"readOnlyHint": false',
    );
  });
});

const bin = join(ROOT, 'dist', 'cli', 'main.js');
describe.runIf(existsSync(join(ROOT, 'dist', 'cli', 'run-check.js')))(
  'hintgate check as the built bin',
  () => {
    it("checks a server command and exits with the report's exit code", async () => {
      const run = promisify(execFile);
      const { stdout } = await run(process.execPath, [
        bin,
        'check',
        '--json',
        '--fail-on',
        'none',
        '--',
        ...EVERYTHING_EXITING,
      ]);
      expect(JSON.parse(stdout)).toMatchObject({ version: 1, exitCode: 0 });
      const failure = await run(process.execPath, [
        bin,
        'check',
        '--fail-on',
        'low',
        '--',
        ...EVERYTHING_EXITING,
      ]).catch((error: { code: number; stdout: string }) => error);
      expect(failure).toMatchObject({ code: 1 });
      const usage = await run(process.execPath, [bin, 'check', '--allow-writes']).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(usage).toMatchObject({ code: 2 });
    });
  },
);
