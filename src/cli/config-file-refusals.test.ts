import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgv, REPO_ROOT } from './serve-process.test-helpers.js';

// Every flag that names a configuration-like file, given files that are not configuration
// files, through the real CLI (a child process from the sources). Each must end at once with
// exit code 2 and one message naming the file and what is wrong: no hang on a FIFO, no
// endless read of /dev/zero or /dev/urandom, no raw ELOOP.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-config-refusals-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const run = (args: readonly string[]): Promise<Run> =>
  new Promise((resolve) => {
    const [command, ...rest] = args;
    const child = execFile(
      process.execPath,
      cliArgv(command as 'serve', rest),
      { cwd: REPO_ROOT, timeout: 30_000, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });

const FLAGS = [
  ['gateway', '--config'],
  ['pin', '--config'],
  ['check', '--config'],
  ['serve', '--policy'],
] as const;

/** Runs every flag on `file`, two at a time (the machine has two cores). */
const runAll = async (file: string): Promise<Map<string, Run>> => {
  const results = new Map<string, Run>();
  const queue = [...FLAGS];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      results.set(next[0], await run([next[0], next[1], file]));
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
};

const expectRefusal = (results: Map<string, Run>, file: string, what: RegExp): void => {
  for (const [command, result] of results) {
    expect(result.code, `${command}: ${result.stderr}`).toBe(2);
    expect(result.stdout, command).toBe('');
    const message = result.stderr.trim();
    expect(message, command).toContain(`hintgate ${command}: `);
    expect(message, command).toContain(file);
    expect(message, command).toMatch(what);
    expect(message, command).not.toMatch(/\bE[A-Z]{3,}\b/);
  }
};

describe.runIf(process.platform === 'linux')(
  'config flags given files that are not configurations',
  () => {
    it('refuses /dev/zero at once, as a device, without reading it', async () => {
      expectRefusal(
        await runAll('/dev/zero'),
        '/dev/zero',
        /a character device, not a regular file/,
      );
    }, 120_000);

    it('refuses /dev/urandom at once, as a device', async () => {
      expectRefusal(
        await runAll('/dev/urandom'),
        '/dev/urandom',
        /a character device, not a regular file/,
      );
    }, 120_000);

    it('refuses a FIFO with no writer instead of hanging on it', async () => {
      const fifo = join(dir, 'hintgate.yaml.fifo');
      execFileSync('mkfifo', [fifo]);
      expectRefusal(await runAll(fifo), fifo, /a FIFO \(named pipe\), not a regular file/);
    }, 120_000);

    it('refuses a directory', async () => {
      const directory = join(dir, 'conf.d');
      await mkdir(directory);
      expectRefusal(
        await runAll(directory),
        directory,
        /is a directory, not a (configuration|policy) file/,
      );
    }, 120_000);

    it('says "loop of symbolic links" for a symlink loop, never ELOOP', async () => {
      const a = join(dir, 'loop-a.yaml');
      await symlink(join(dir, 'loop-b.yaml'), a);
      await symlink(a, join(dir, 'loop-b.yaml'));
      expectRefusal(await runAll(a), a, /loop of symbolic links/);
    }, 120_000);

    it('refuses a configuration larger than 4 MiB by its size, naming the limit', async () => {
      const huge = join(dir, 'huge.yaml');
      await writeFile(huge, '');
      await truncate(huge, 512 * 1024 * 1024);
      const result = await run(['gateway', '--config', huge]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        `Cannot read gateway configuration ${huge}: it is 536870912 bytes, more than the limit of 4 MiB`,
      );
    }, 60_000);
  },
);
