import { type CliIo, runCli } from './run-cli.js';

/** What one in-process `hintgate` run printed, and its exit code. */
export interface CapturedCliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `hintgate ...args` in this process (`runCli`) and captures what it prints. The
 * environment is `{}` unless `io.env` is given, so nothing of the test's own leaks in.
 */
export async function captureCli(
  args: readonly string[],
  io: Omit<CliIo, 'stdout' | 'stderr'> = {},
): Promise<CapturedCliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: {},
    ...io,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
