import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const capture = (args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
};

describe('hintgate CLI', () => {
  it('prints help with no arguments and with --help', () => {
    for (const args of [[], ['--help'], ['-h']]) {
      const { code, stdout } = capture(args);
      expect(code).toBe(0);
      expect(stdout).toContain('Usage: hintgate');
    }
  });

  it('prints the package version', () => {
    const { code, stdout } = capture(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('rejects an unknown command or flag with one line and exit code 2', () => {
    const command = capture(['serve-all']);
    expect(command).toMatchObject({ code: 2, stdout: '' });
    expect(command.stderr).toBe(
      'hintgate: unknown command "serve-all". Run "hintgate --help" for usage.\n',
    );
    expect(capture(['--frobnicate']).stderr).toContain('unknown option "--frobnicate"');
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
});
