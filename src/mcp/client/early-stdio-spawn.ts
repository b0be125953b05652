import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import { defaultEnvironment } from './default-environment.js';

/** What starts a stdio server's process. */
export interface StdioUpstreamParams {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the SDK's default environment (PATH, HOME and the like), as the SDK does. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/**
 * Starts a stdio server's process as the SDK's `StdioClientTransport` does: its default
 * environment plus `env`, three pipes, no shell.
 */
export function spawnStdioServer(params: StdioUpstreamParams): ChildProcess {
  return spawn(params.command, [...(params.args ?? [])], {
    env: { ...defaultEnvironment(), ...params.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    windowsHide: process.platform === 'win32',
    ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
  });
}

/** A process started ahead of its connection, and what happened to it meanwhile. */
interface EarlyChild {
  readonly child: ChildProcess;
  spawned: boolean;
  /** It failed to start, or exited: it is not adopted (the connection starts its own). */
  ended: boolean;
  readonly timer: NodeJS.Timeout;
}

const early = new Map<string, EarlyChild>();

/** The identity of a start: command, arguments, environment and directory. */
const keyOf = (params: StdioUpstreamParams): string =>
  JSON.stringify([
    params.command,
    params.args ?? [],
    Object.entries(params.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    params.cwd ?? null,
  ]);

const stop = (entry: EarlyChild): void => {
  clearTimeout(entry.timer);
  if (!entry.ended) {
    entry.child.stdin?.end();
    entry.child.kill('SIGTERM');
  }
};

/**
 * Starts the process of a stdio server before its connection is made, so that its start
 * overlaps the caller's own (the gateway CLI loading the rest of itself). The first
 * {@link StdioUpstreamTransport} started with the same parameters takes the process over
 * with its output unread (nothing is lost: the pipes hold it); one not taken over within
 * `holdMs`, or by {@link stopEarlyStdioServers}, is stopped. A second start of the same
 * parameters before the first is taken over does nothing. Returns the process id
 * (`undefined` when the process could not be started, or was started already).
 */
export function spawnStdioServerEarly(
  params: StdioUpstreamParams,
  holdMs = 30_000,
): number | undefined {
  const key = keyOf(params);
  if (early.has(key)) return undefined;
  const child = spawnStdioServer(params);
  const entry: EarlyChild = {
    child,
    spawned: false,
    ended: false,
    timer: setTimeout(() => {
      if (early.get(key) !== entry) return;
      early.delete(key);
      stop(entry);
    }, holdMs),
  };
  entry.timer.unref();
  early.set(key, entry);
  // Until it is taken over, what it does is only noted: an error is the connection's to
  // meet again with a process of its own.
  child.once('spawn', () => {
    entry.spawned = true;
  });
  child.once('error', () => {
    entry.ended = true;
  });
  child.once('exit', () => {
    entry.ended = true;
  });
  child.stdin?.on('error', () => {});
  return child.pid;
}

/** A process taken over: whether its `spawn` event has been emitted already. */
export interface AdoptedChild {
  readonly child: ChildProcess;
  readonly spawned: boolean;
}

/**
 * The process started early for `params`, now the caller's; `undefined` when there is
 * none, or when it failed to start or exited meanwhile (then it is dropped).
 */
export function adoptEarlyStdioServer(params: StdioUpstreamParams): AdoptedChild | undefined {
  if (early.size === 0) return undefined;
  const key = keyOf(params);
  const entry = early.get(key);
  if (entry === undefined) return undefined;
  early.delete(key);
  clearTimeout(entry.timer);
  if (entry.ended) {
    stop(entry);
    return undefined;
  }
  return { child: entry.child, spawned: entry.spawned };
}

/** Stops every process started early and not taken over. */
export function stopEarlyStdioServers(): void {
  for (const entry of early.values()) stop(entry);
  early.clear();
}
