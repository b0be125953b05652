import { type ChildProcess, spawn } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { HintgateError } from '../errors/index.js';
import { nodeScriptArgs } from './node-script-args.js';

/** Options of {@link startNodeProcess}. */
export interface StartNodeProcessOptions {
  /** The program to run: a `.js` or `.ts` file, by path or file URL (see {@link nodeScriptArgs}). */
  readonly script: string | URL;
  /** Its command-line arguments. Default none. */
  readonly args?: readonly string[];
  /** Its whole environment. Default this process's environment. */
  readonly env?: NodeJS.ProcessEnv;
  /** Its working directory. Default this process's. */
  readonly cwd?: string;
  /**
   * What it prints once ready: a pattern matched against all it wrote so far to
   * `readyOn`. Without it, the process counts as ready once spawned.
   */
  readonly ready?: RegExp;
  /** The stream `ready` is looked for on. Default `stdout`. */
  readonly readyOn?: 'stdout' | 'stderr';
  /** How long to wait for `ready`, in milliseconds of wall time. Default 20000. */
  readonly timeoutMs?: number;
}

/** A running child process started by {@link startNodeProcess}. */
export interface NodeProcess {
  /** The child process (its standard input is closed). */
  readonly child: ChildProcess;
  /** The match of `ready` (the whole match first, then its groups); empty without `ready`. */
  readonly ready: readonly string[];
  /** What it wrote to standard output so far. */
  stdout(): string;
  /** What it wrote to standard error so far. */
  stderr(): string;
  /**
   * Sends `signal` (default `SIGTERM`) unless it already exited, and resolves to its exit
   * code (`null` when a signal ended it). Safe to call twice.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** tsx's variable naming its tsconfig, which it passes on to child processes. */
const TSX_TSCONFIG = 'TSX_TSCONFIG_PATH';

/**
 * The child's environment: `env` with a relative tsconfig path of tsx (a parent started
 * with `tsx --tsconfig <relative path>`) made absolute, since the child may run elsewhere.
 */
const childEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
  const tsconfig = env[TSX_TSCONFIG];
  if (tsconfig === undefined || tsconfig === '' || isAbsolute(tsconfig)) return env;
  return { ...env, [TSX_TSCONFIG]: resolve(tsconfig) };
};

/**
 * Starts a Node program as a child process, from source or compiled, and resolves once it
 * printed `ready` (a server's "listening on ..." line): `const server = await
 * startNodeProcess({ script, ready: /"port":(\d+)/ }); const port = Number(server.ready[1])`.
 * Rejects, with what it wrote to standard error, when it exits first or is not ready within
 * `timeoutMs` (then it is killed). Stop it with `stop()` in `afterEach`.
 */
export function startNodeProcess(options: StartNodeProcessOptions): Promise<NodeProcess> {
  const { ready, readyOn = 'stdout', timeoutMs = 20_000 } = options;
  if (ready !== undefined && !(ready instanceof RegExp)) {
    throw new HintgateError('invalid_option', 'startNodeProcess: ready must be a RegExp');
  }
  if (readyOn !== 'stdout' && readyOn !== 'stderr') {
    throw new HintgateError(
      'invalid_option',
      `startNodeProcess: readyOn is ${JSON.stringify(readyOn)}; use "stdout" or "stderr"`,
    );
  }
  const child = spawn(
    process.execPath,
    [...nodeScriptArgs(options.script), ...(options.args ?? [])],
    {
      env: childEnv(options.env ?? process.env),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = { stdout: '', stderr: '' };
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
  });
  const started: NodeProcess['stop'] = (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (match: readonly string[] | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (match instanceof Error) reject(match);
      else {
        resolve({
          child,
          ready: match,
          stdout: () => output.stdout,
          stderr: () => output.stderr,
          stop: started,
        });
      }
    };
    const timer = setTimeout(() => {
      void started('SIGKILL');
      done(
        new Error(`${String(options.script)} was not ready in ${timeoutMs} ms:\n${output.stderr}`),
      );
    }, timeoutMs);
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]?.setEncoding('utf8');
      child[stream]?.on('data', (chunk: string) => {
        output[stream] += chunk;
        if (ready === undefined || stream !== readyOn) return;
        const match = ready.exec(output[stream]);
        if (match !== null) done([...match].map((part) => part ?? ''));
      });
    }
    child.once('error', (error) => done(error));
    if (ready === undefined) child.once('spawn', () => done([]));
    void exited.then((code) =>
      done(new Error(`${String(options.script)} exited with ${code}:\n${output.stderr}`)),
    );
  });
}
