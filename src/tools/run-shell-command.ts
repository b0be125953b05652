import { spawn as nodeSpawn } from 'node:child_process';
import { OutputCapture } from './output-capture.js';

/** Options of {@link runShellCommand}. */
export interface RunShellCommandOptions {
  /** The command line, run as `<shell> -c <command>`. */
  readonly command: string;
  /** Shell program, e.g. `/bin/sh`. */
  readonly shell: string;
  /** Working directory. */
  readonly cwd: string;
  /** Environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds before the command and its children are killed. */
  readonly timeoutMs: number;
  /** Bytes of stdout and of stderr kept each. */
  readonly maxOutputBytes: number;
  /** Kills the command when aborted. */
  readonly signal?: AbortSignal;
  /** Process spawner. Default `spawn` of `node:child_process`. */
  readonly spawn?: typeof nodeSpawn;
}

/** How a command ended. */
export interface ShellCommandOutcome {
  /** Exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, if one did. */
  readonly signal: string | null;
  /** True when it ran out of time and was killed. */
  readonly timedOut: boolean;
  /** Standard output, head and tail kept. */
  readonly stdout: string;
  /** Standard error, head and tail kept. */
  readonly stderr: string;
  /** Milliseconds from start to end. */
  readonly durationMs: number;
}

/** After SIGTERM, how long a command has to stop before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for its output pipes to close. */
const DRAIN_MS = 500;

/**
 * Runs a command line in its own process group with stdin closed, keeping the head and tail
 * of stdout and stderr. On timeout or abort the whole group gets SIGTERM, then SIGKILL.
 * When the shell exits, what it left running in the background is killed too, so a call's
 * effects end with the call (the scheduler's locks assume that).
 *
 * @throws the signal's reason when aborted, or the spawn error (a missing shell).
 */
export function runShellCommand(options: RunShellCommandOptions): Promise<ShellCommandOutcome> {
  const spawn = options.spawn ?? nodeSpawn;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(options.shell, ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout = new OutputCapture(options.maxOutputBytes);
    const stderr = new OutputCapture(options.maxOutputBytes);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    const stop = (): void => {
      killGroup('SIGTERM');
      timers.push(setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS));
    };
    const onAbort = (): void => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, options.timeoutMs),
    );
    const finish = (exitCode: number | null, signal: string | null): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (options.signal?.aborted) {
        reject(options.signal.reason);
        return;
      }
      resolve({
        exitCode,
        signal,
        timedOut,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: Date.now() - started,
      });
    };
    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      killGroup('SIGKILL');
      const drain = setTimeout(() => finish(code, signal), DRAIN_MS);
      child.once('close', () => {
        clearTimeout(drain);
        finish(code, signal);
      });
    });
  });
}
