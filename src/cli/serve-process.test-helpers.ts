import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type NodeProcess, nodeScriptArgs, startNodeProcess } from '../testing/index.js';

/** The repository root: the working directory of spawned servers, where tsx resolves. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(REPO_ROOT, 'src', 'cli', 'main.ts');

/**
 * The Node arguments that start the `hintgate` CLI: the test run's build of it, or the
 * sources through tsx (see {@link nodeScriptArgs}).
 */
export const cliNodeArgs = (): string[] => nodeScriptArgs(CLI);

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

/**
 * A stdio transport that spawns `hintgate gateway ...args` when the client connects, and
 * what the gateway has written on stderr so far.
 */
export const gatewayStdio = (
  args: readonly string[],
): { transport: StdioClientTransport; stderr: () => string } => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgv('gateway', args),
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  return { transport, stderr: () => stderr };
};

/** A `hintgate serve --http` or `hintgate gateway --http` child process. */
export interface HttpServeProcess extends NodeProcess {
  /** The endpoint URL it printed. */
  readonly url: string;
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

async function startHttp(
  command: 'serve' | 'gateway',
  args: readonly string[],
  options: HttpProcessOptions,
): Promise<HttpServeProcess> {
  const started = await startNodeProcess({
    script: CLI,
    args: [command, '--http', '--port', '0', ...args],
    cwd: REPO_ROOT,
    ...(options.env === undefined ? {} : { env: options.env }),
    ready: / at (http:\/\/\S+\/mcp)/,
    readyOn: 'stderr',
    timeoutMs: options.timeoutMs ?? 20_000,
  });
  return { ...started, url: started.ready[1] ?? '' };
}
