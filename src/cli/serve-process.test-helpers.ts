import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { nodeScriptArgs } from '../node-script.test-helpers.js';

/** The repository root: the working directory of spawned servers, where tsx resolves. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The Node arguments that start the `hintgate` CLI: the test run's build of it, or the
 * sources through tsx (see {@link nodeScriptArgs}).
 */
export const cliNodeArgs = (): string[] => nodeScriptArgs(join(REPO_ROOT, 'src', 'cli', 'main.ts'));

/** `hintgate <command> ...args` as arguments of `process.execPath`. */
export const cliArgv = (command: string, args: readonly string[]): string[] => [
  ...cliNodeArgs(),
  command,
  ...args,
];

/** `hintgate <command> ...args` as a server entry of a configuration (command and args). */
export const cliEntry = (
  command: string,
  args: readonly string[],
): { command: string; args: string[] } => ({
  command: process.execPath,
  args: cliArgv(command, args),
});

/** `hintgate <command> ...args` as one line for a POSIX shell (a terminal under tmux). */
export const cliShellCommand = (command: string, args: readonly string[]): string =>
  [process.execPath, ...cliArgv(command, args)].map((arg) => JSON.stringify(arg)).join(' ');

/** `hintgate serve ...args` as arguments of `process.execPath` (see {@link cliArgv}). */
export const serveArgv = (args: readonly string[]): string[] => cliArgv('serve', args);

/** A stdio transport that spawns `hintgate serve ...args` when the client connects. */
export const stdioTransport = (args: readonly string[]): StdioClientTransport =>
  new StdioClientTransport({
    command: process.execPath,
    args: serveArgv(args),
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });

/** A `hintgate serve --http` or `hintgate gateway --http` child process. */
export interface HttpServeProcess {
  readonly child: ChildProcess;
  /** The endpoint URL it printed. */
  readonly url: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Sends `signal` and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Options of {@link startHttpServe} and {@link startHttpGateway}. */
export interface HttpProcessOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * Starts `hintgate serve --http --port 0 ...args` and resolves once it printed its URL;
 * rejects with its stderr when it exits first or takes longer than `timeoutMs`.
 */
export const startHttpServe = (
  args: readonly string[],
  options: HttpProcessOptions = {},
): Promise<HttpServeProcess> => startHttp('serve', args, options);

/** The same for `hintgate gateway --http --port 0 ...args`. */
export const startHttpGateway = (
  args: readonly string[],
  options: HttpProcessOptions = {},
): Promise<HttpServeProcess> => startHttp('gateway', args, options);

function startHttp(
  command: 'serve' | 'gateway',
  args: readonly string[],
  options: HttpProcessOptions,
): Promise<HttpServeProcess> {
  const child = spawn(process.execPath, cliArgv(command, ['--http', '--port', '0', ...args]), {
    cwd: REPO_ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hintgate ${command} did not start in time:\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const url = / at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        stderr: () => stderr,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hintgate ${command} exited with ${code}:\n${stderr}`));
    });
  });
}
