import { spawn } from 'node:child_process';

/** How a sandboxed server is kept from the host's files. */
export type IsolationKind = 'bubblewrap' | 'none';

/** Which isolation to use: the best available (`auto`), bubblewrap or nothing. */
export type IsolationOption = 'auto' | IsolationKind;

/** Every {@link IsolationOption}. */
export const ISOLATION_OPTIONS: readonly IsolationOption[] = ['auto', 'bubblewrap', 'none'];

/** Whether bubblewrap can isolate servers here, and if not, why. */
export type BubblewrapAvailability =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string };

let detected: Promise<BubblewrapAvailability> | undefined;

/** Runs `bwrap` once over a read-only root: resolves to whether that worked, and why not. */
function tryBubblewrap(): Promise<BubblewrapAvailability> {
  if (process.platform !== 'linux') {
    return Promise.resolve({
      available: false,
      reason: `bubblewrap is a Linux tool and this is ${process.platform}`,
    });
  }
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(
      'bwrap',
      ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--', 'true'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${String(chunk)}`.slice(-500);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      resolve({
        available: false,
        reason:
          error.code === 'ENOENT'
            ? 'bwrap is not installed (Debian and Ubuntu: apt-get install bubblewrap)'
            : `bwrap could not be started: ${error.message}`,
      });
    });
    child.on('close', (code) => {
      if (code === 0) resolve({ available: true });
      else
        resolve({
          available: false,
          reason: `bwrap could not make a sandbox here (exit ${code}): ${stderr.trim() || 'no message'}; unprivileged user namespaces may be disabled`,
        });
    });
  });
}

/**
 * Whether bubblewrap (`bwrap`) is on `PATH` and can make a sandbox on this machine (Linux
 * with user namespaces, or bwrap installed setuid). Checked once per process.
 */
export function detectBubblewrap(): Promise<BubblewrapAvailability> {
  detected ??= tryBubblewrap();
  return detected;
}

/** A directory the sandboxed server may see, writable or not. */
export interface BubblewrapBind {
  readonly path: string;
  readonly writable: boolean;
}

/**
 * The command line that runs `command args` under bubblewrap: the host's whole file system
 * read-only, a private `/dev` and `/proc`, its own process namespace and session (it cannot
 * push input into the terminal), ended with its parent, and writable only where `binds`
 * say (the sandbox directory, package caches). The network is shared: servers and `npx`
 * may need it.
 */
export function bubblewrapCommandLine(options: {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly binds: readonly BubblewrapBind[];
}): { command: string; args: string[] } {
  const binds = options.binds.flatMap((bind) => [
    bind.writable ? '--bind' : '--ro-bind',
    bind.path,
    bind.path,
  ]);
  return {
    command: 'bwrap',
    args: [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      ...binds,
      '--chdir',
      options.cwd,
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--die-with-parent',
      '--new-session',
      '--',
      options.command,
      ...options.args,
    ],
  };
}
