import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, until, writeConfig } from '../gateway/gateway.test-helpers.js';
import { processAlive } from '../testing/index.js';
import { cliArgv, REPO_ROOT } from './serve-process.test-helpers.js';

// `hintgate gateway` as a real child process, stopped with SIGTERM while an upstream it
// started has not answered yet.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Writes its pid to $PIDFILE and never answers. */
const HANGS =
  "require('fs').writeFileSync(process.env.PIDFILE, String(process.pid)); setInterval(() => {}, 1000)";

describe('hintgate gateway: a signal while starting', () => {
  it('stops the start: the upstream process it started is stopped and the gateway exits', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const pidFile = join(dir, 'upstream.pid');
    await writeConfig(dir, {
      servers: {
        hangs: { command: process.execPath, args: ['-e', HANGS], env: { PIDFILE: pidFile } },
      },
      pin: { newTools: 'allow' },
    });
    const child: ChildProcess = spawn(
      process.execPath,
      cliArgv('gateway', ['--config', join(dir, 'hintgate.yaml')]),
      { cwd: REPO_ROOT, stdio: ['pipe', 'ignore', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
    });
    let upstream: number | undefined;
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      if (upstream !== undefined && processAlive(upstream)) process.kill(upstream, 'SIGKILL');
    });

    await until(async () => (await readFile(pidFile, 'utf8').catch(() => '')) !== '', 20_000);
    upstream = Number(await readFile(pidFile, 'utf8'));
    expect(processAlive(upstream)).toBe(true);
    child.kill('SIGTERM');

    expect(await exited).toBe(0);
    expect(stderr).toContain('SIGTERM: stopped while starting.');
    expect(processAlive(upstream)).toBe(false);
  }, 30_000);

  it('says so when it starts with none of its servers reached yet', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    await writeConfig(dir, {
      servers: {
        hangs: {
          command: process.execPath,
          args: ['-e', 'setInterval(() => {}, 1000)'],
          connectTimeoutMs: 300,
        },
      },
      pin: { newTools: 'allow' },
    });
    const child: ChildProcess = spawn(
      process.execPath,
      cliArgv('gateway', ['--config', join(dir, 'hintgate.yaml')]),
      { cwd: REPO_ROOT, stdio: ['pipe', 'ignore', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
    });
    await until(() => stderr.includes('over stdio'), 20_000);
    expect(stderr).toContain(
      'serving 0 tools (its server is not reached yet; its tools appear once it is), mode ask over stdio',
    );
    child.stdin?.end();
    expect(await exited).toBe(0);
  }, 30_000);
});
