import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const capture = async (args: string[], env: Record<string, string> = {}) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env,
  });
  return { code, stdout, stderr };
};

describe('hintgate CLI', () => {
  it('prints help with no arguments and with --help', async () => {
    for (const args of [[], ['--help'], ['-h']]) {
      const { code, stdout } = await capture(args);
      expect(code).toBe(0);
      expect(stdout).toContain('Usage: hintgate');
      expect(stdout).toContain('serve');
    }
  });

  it('prints the package version', async () => {
    const { code, stdout } = await capture(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('rejects an unknown command or flag with one line and exit code 2', async () => {
    const command = await capture(['serve-all']);
    expect(command).toMatchObject({ code: 2, stdout: '' });
    expect(command.stderr).toBe(
      'hintgate: unknown command "serve-all". Run "hintgate --help" for usage.\n',
    );
    expect((await capture(['--frobnicate'])).stderr).toContain('unknown option "--frobnicate"');
  });

  const bin = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
  it.runIf(existsSync(bin))('runs as the built bin', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, '--version']);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const failure = await promisify(execFile)(process.execPath, [bin, 'nope']).catch(
      (e: { code: number }) => e,
    );
    expect(failure).toMatchObject({ code: 2 });
  });

  it.runIf(existsSync(bin))('serves the workspace tools over stdio as the built bin', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hintgate-bin-'));
    const client = new Client({ name: 'bin-test', version: '1.0.0' });
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, 'serve', '--workspace', dir],
          stderr: 'pipe',
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('read_file');
    } finally {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hintgate serve: usage errors', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-cli-'));
    await writeFile(join(dir, 'bad.policy.yaml'), 'mode: auto\nrules:\n  - decision: block\n');
    await writeFile(join(dir, 'a-file'), 'not a directory');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('documents every flag in --help', async () => {
    const { code, stdout } = await capture(['serve', '--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--workspace',
      '--mode',
      '--policy',
      '--http',
      '--host',
      '--port',
      '--token',
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toContain('DNS rebinding');
    expect(stdout).toContain('HINTGATE_TOKEN');
  });

  it.each([
    [['--frob'], 'unknown option "--frob"'],
    [['--port'], 'option "--port" needs a value'],
    [['--workspace'], 'option "--workspace" needs a value'],
    [['--http', '--port', '--token'], 'option "--port" needs a value'],
    [['--http=yes'], 'option "--http" takes no value'],
    [['extra'], 'unexpected argument "extra"'],
    [
      ['--mode', 'fast'],
      '--mode "fast" is not a mode; use one of plan, ask, auto, allowlist, yolo',
    ],
    [['--http', '--port', '70000'], '--port "70000" is not a port'],
    [['--http', '--port', '-1'], 'option "--port" needs a value'],
    [['--port', '3000'], '--port only applies with --http'],
    [['--token', 'abcdefghij'], '--token only applies with --http'],
    [['--http', '--token', 'short'], '--token must be at least 8 characters long'],
  ])('%j: one line, exit code 2', async (args, message) => {
    const { code, stdout, stderr } = await capture(['serve', ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr.startsWith('hintgate serve: ')).toBe(true);
  });

  it('refuses a short HINTGATE_TOKEN from the environment', async () => {
    const { code, stderr } = await capture(['serve', '--http'], { HINTGATE_TOKEN: 'short' });
    expect(code).toBe(2);
    expect(stderr).toContain('HINTGATE_TOKEN must be at least 8 characters long');
  });

  it('refuses a missing or non-directory workspace and a bad policy file', async () => {
    const missing = await capture(['serve', '--workspace', join(dir, 'nope')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toMatch(/^hintgate serve: workspace ".*nope" does not exist\.\n$/);

    const file = await capture(['serve', '--workspace', join(dir, 'a-file')]);
    expect(file).toMatchObject({ code: 2 });
    expect(file.stderr).toContain('is not a directory');

    const policy = await capture([
      'serve',
      '--workspace',
      dir,
      '--policy',
      join(dir, 'bad.policy.yaml'),
    ]);
    expect(policy).toMatchObject({ code: 2 });
    expect(policy.stderr).toContain('bad.policy.yaml:3');
    expect(policy.stderr.trimEnd().split('\n')).toHaveLength(1);

    const absent = await capture(['serve', '--workspace', dir, '--policy', join(dir, 'none.yaml')]);
    expect(absent).toMatchObject({ code: 2 });
    expect(absent.stderr).toContain('none.yaml');
    expect(absent.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
