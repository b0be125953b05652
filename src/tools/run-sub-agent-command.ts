import { spawn as nodeSpawn } from 'node:child_process';
import { OutputCapture } from './output-capture.js';

/** Options of {@link runSubAgentCommand}. */
export interface RunSubAgentCommandOptions {
  /** Program and arguments, run without a shell. */
  readonly argv: readonly string[];
  /** Written to standard input, which is then closed; absent: standard input is closed. */
  readonly input?: string;
  /** Working directory. */
  readonly cwd: string;
  /** Environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Bytes of stdout and of stderr kept each. */
  readonly maxOutputBytes: number;
  /** Kills the sub-agent and everything it started when aborted. */
  readonly signal: AbortSignal;
  /** Process spawner. Default `spawn` of `node:child_process`. */
  readonly spawn?: typeof nodeSpawn;
}

/** How a sub-agent command ended. */
export interface SubAgentOutcome {
  /** Exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, if one did. */
  readonly signal: string | null;
  /** Standard output, head and tail kept. */
  readonly stdout: string;
  /** Standard error, head and tail kept. */
  readonly stderr: string;
}

/** After SIGTERM, how long the sub-agent has to stop before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** After the sub-agent exits, how long to wait for its output pipes to close. */
const DRAIN_MS = 500;

/**
 * Runs a sub-agent command in its own process group, its prompt on standard input or in its
 * arguments, keeping the head and tail of stdout and stderr. When `signal` aborts (the call
 * was cancelled or timed out) the whole group gets SIGTERM, then SIGKILL; the promise
 * settles only once the sub-agent has exited, so the call's locks cover its whole life.
 * When the sub-agent exits, what it left running is killed too.
 *
 * @throws the signal's reason when aborted, or the spawn error (a missing program).
 */
export function runSubAgentCommand(options: RunSubAgentCommandOptions): Promise<SubAgentOutcome> {
  const spawn = options.spawn ?? nodeSpawn;
  const [program, ...args] = options.argv;
  return new Promise((resolve, reject) => {
    options.signal.throwIfAborted();
    const child = spawn(program as string, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout = new OutputCapture(options.maxOutputBytes);
    const stderr = new OutputCapture(options.maxOutputBytes);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A sub-agent that exits without reading its input closes the pipe: not an error here.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    const onAbort = (): void => {
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => {
      settled = true;
      clearTimeout(killTimer);
      options.signal.removeEventListener('abort', onAbort);
    };
    const finish = (exitCode: number | null, signal: string | null): void => {
      if (settled) return;
      done();
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (options.signal.aborted) {
        reject(options.signal.reason);
        return;
      }
      resolve({ exitCode, signal, stdout: stdout.text(), stderr: stderr.text() });
    };
    child.once('error', (error) => {
      if (settled) return;
      done();
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
