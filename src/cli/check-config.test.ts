// hintgate check over a configuration with real server processes: a server that cannot be
// checked does not keep the others' verdicts out of the pin file, and a terminal sees
// progress while the check runs.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emptyLockFile, pinTools, readLockFile, writeLockFile } from '../check/pin/index.js';
import { loadGatewayConfig } from '../gateway/config/index.js';
import { nodeScriptArgs } from '../testing/index.js';
import { checkConfig } from './check-config.js';
import { captureCli } from './run-cli.test-helpers.js';
import { cliArgv } from './serve-process.test-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const honest = {
  command: process.execPath,
  args: nodeScriptArgs(join(ROOT, 'src', 'check', 'fixtures', 'honest-server.ts')),
  env: { TSX_DISABLE_CACHE: '1' },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-check-config-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A project with an honest server and one whose command does not exist. */
const project = async (name: string) => {
  const path = join(dir, name);
  await mkdir(path);
  const config = join(path, 'hintgate.yaml');
  await writeFile(
    config,
    JSON.stringify({
      servers: { notes: honest, broken: { command: join(path, 'no-such-server') } },
    }),
  );
  return { path, config };
};

const cli = (args: string[], cwd: string, stdoutIsTTY = false) =>
  captureCli(['check', ...args], { cwd, stdoutIsTTY });

describe('hintgate check --write-pin with a server that cannot be checked', () => {
  it('writes the verdicts of the others, keeps the pins the broken one had, and exits 3', async () => {
    const { path } = await project('one-broken');
    const lockPath = join(path, 'hintgate.lock');
    const earlier = pinTools(emptyLockFile(), {
      server: 'broken',
      listings: [
        { name: 'old_tool', description: 'Pinned before.', inputSchema: { type: 'object' } },
      ],
      now: new Date('2025-01-01T00:00:00.000Z'),
    });
    await writeLockFile(lockPath, earlier);

    const { code, stdout, stderr } = await cli(['--probe', '--write-pin', '--json'], path);
    expect(code).toBe(3);
    expect(stderr).toContain('MCP server "broken"');
    expect(stderr).toContain(
      'wrote the verdicts of the servers that were checked to hintgate.lock; broken could not be checked and kept its pins.',
    );
    const report = JSON.parse(stdout);
    expect(report.pin).toEqual({ file: 'hintgate.lock', changed: true, kept: ['broken'] });
    expect(report.servers.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual(
      [
        ['notes', 'checked'],
        ['broken', 'failed'],
      ],
    );
    const lock = await readLockFile(lockPath);
    expect(lock.servers.notes?.tools.read_note?.verdict).toBe('verified');
    expect(lock.servers.notes?.tools.delete_note?.verdict).toBe('inconclusive');
    expect(lock.servers.broken).toEqual(earlier.servers.broken);
  });

  it('says so in the table', async () => {
    const { path } = await project('one-broken-table');
    const { code, stdout } = await cli(['--probe', '--write-pin'], path);
    expect(code).toBe(3);
    expect(stdout).toContain(
      'Wrote the verdicts with the pins to hintgate.lock for the servers that were checked; the pins of broken (not checked) were left as they were.',
    );
  });

  it('checkConfig, for other commands: the same result as data, and no exception', async () => {
    const { config: file } = await project('as-data');
    const config = await loadGatewayConfig(file);
    const seen: string[] = [];
    const result = await checkConfig({
      config,
      probe: true,
      allowWrites: false,
      passEnv: [],
      writePin: true,
      onProgress: (server, progress) => seen.push(`${server} ${progress.phase}`),
    });
    expect(result.checks.map((check) => check.server.status)).toEqual(['checked', 'failed']);
    expect(result.pin).toMatchObject({ changed: true, pinned: ['notes'], kept: ['broken'] });
    expect(result.pinErrors).toEqual([]);
    expect(seen).toContain('notes done');
    expect(seen).toContain('broken failed');
    expect(seen.indexOf('notes listed')).toBeLessThan(seen.indexOf('notes done'));
  });
});

describe('hintgate check progress', () => {
  it('shows one line per server on a terminal, redrawn as it goes, then the table', async () => {
    const { path } = await project('progress');
    const { stdout } = await cli(['--probe'], path, true);
    const table = stdout.indexOf('hintgate check of hintgate.yaml');
    expect(table).toBeGreaterThan(0);
    const progress = stdout.slice(0, table);
    // Redrawn in place: the cursor goes back up over the two lines.
    expect(progress).toContain('\u001b[2A');
    expect(progress).toMatch(/ {2}notes {3}probing tool \d of 6: \w+ +\d+\.\ds\n/);
    expect(progress).toMatch(/ {2}broken {2}NOT CHECKED: its command "[^\n]* +\d+\.\ds\n/);
    // The last drawing says how each one ended.
    const last = progress.slice(progress.lastIndexOf('\u001b[2A'));
    expect(last).toMatch(/ {2}notes {3}done: 6 tools, \d+ findings +\d+\.\ds\n/);
  });

  it('shows nothing extra when stdout is not a terminal, or with --json', async () => {
    const { path } = await project('no-progress');
    const plain = await cli([], path);
    expect(plain.stdout.startsWith('hintgate check of hintgate.yaml')).toBe(true);
    const json = await cli(['--json'], path, true);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    expect(json.stdout).not.toContain('\u001b');
    expect(await readFile(join(path, 'hintgate.yaml'), 'utf8')).toContain('no-such-server');
  });
});

describe('hintgate check of a server started by a launcher that downloads', () => {
  it('names the flag to raise when it does not answer in time', async () => {
    const bin = join(dir, 'launchers');
    await mkdir(bin, { recursive: true });
    // Stands in for uvx fetching a package: it says nothing for longer than the timeout.
    await writeFile(join(bin, 'uvx'), '#!/bin/sh\nexec sleep 30\n');
    await chmod(join(bin, 'uvx'), 0o755);
    const { code, stdout } = await cli(
      ['--connect-timeout', '0.5', '--', join(bin, 'uvx'), 'mcp-server-fetch'],
      dir,
    );
    expect(code).toBe(3);
    expect(stdout).toContain(
      'uvx may still be downloading what it runs on a first start: raise it with --connect-timeout 60',
    );
  });
});

describe('hintgate check stopped by a signal', () => {
  it('closes the servers, removes their sandboxes, and reports what was not checked', async () => {
    const temp = join(dir, 'signal-tmp');
    await mkdir(temp, { recursive: true });
    const child = spawn(
      process.execPath,
      cliArgv('check', ['--', process.execPath, '-e', 'setInterval(() => {}, 1000)']),
      {
        cwd: dir,
        env: { ...process.env, TMPDIR: temp, TSX_DISABLE_CACHE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // The server is up (its sandbox made) and does not answer: stop the check.
    await vi.waitFor(
      async () =>
        expect(
          (await readdir(temp)).filter((name) => name.startsWith('hintgate-probe-')),
        ).toHaveLength(1),
      { timeout: 20_000, interval: 50 },
    );
    child.kill('SIGINT');
    expect(await exited).toBe(3);
    expect(stdout).toContain('NOT CHECKED. stopped by SIGINT before it was checked');
    expect((await readdir(temp)).filter((name) => name.startsWith('hintgate-probe-'))).toEqual([]);
  });
});
