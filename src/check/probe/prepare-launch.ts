import { accessSync, constants } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { HintgateError } from '../../errors/index.js';
import { ownValue } from '../../tool/index.js';
import {
  type BubblewrapBind,
  bubblewrapCommandLine,
  detectBubblewrap,
  type IsolationKind,
  type IsolationOption,
} from './bubblewrap.js';
import { copyServerPackage, isNodeScript, nodeScriptIndex } from './copy-server-package.js';
import { installNpxPackages, parseNpxArgs } from './npx-install.js';
import { type HostPackageCache, hostPackageCaches } from './package-caches.js';
import {
  type Sandbox,
  type SubstitutedArgument,
  sandboxCommandLine,
  sandboxEnvironment,
} from './sandbox.js';

/** Default time `npx` gets to install a server's package before it starts, in milliseconds. */
export const DEFAULT_INSTALL_TIMEOUT_MS = 300_000;

/** How a server was kept apart from the host, for reports. */
export interface SandboxIsolation {
  /**
   * `bubblewrap`: the host's files were read-only to it except the sandbox and the writable
   * package caches. `none`: no OS isolation; it ran as you (see `reason`).
   */
  readonly kind: IsolationKind;
  /** Why there was no OS isolation (not Linux, bwrap missing or refused, turned off). */
  readonly reason?: string;
  /** Host package caches handed to it (`npm_config_cache`, `UV_CACHE_DIR`, ...). */
  readonly caches: readonly HostPackageCache[];
  /**
   * Its own code, copied into the sandbox from its install folder (which it then never
   * ran from); absent when it ran where it is installed (`notCopied` says why).
   */
  readonly serverCopy?: { readonly from: string; readonly to: string };
  /** Why its code ran from where it is installed. */
  readonly notCopied?: string;
}

/** Options of {@link prepareLaunch}. */
export interface PrepareLaunchOptions {
  readonly sandbox: Sandbox;
  readonly command: string;
  readonly args: readonly string[];
  /** The server's own environment, from its configuration. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Resolves relative paths of the command line. */
  readonly cwd?: string | undefined;
  /** Host variables handed in by name. */
  readonly passEnv?: readonly string[] | undefined;
  /** Default `auto`: bubblewrap when it works here, else none. */
  readonly isolation?: IsolationOption | undefined;
  /** Hand the host's package caches in. Default true. */
  readonly hostCaches?: boolean | undefined;
  /** Time `npx` may take to install the server's package, in ms. Default 300000. */
  readonly installTimeoutMs?: number | undefined;
  /** Names the server in messages. */
  readonly where: string;
  readonly signal?: AbortSignal | undefined;
  /** Told when `npx` starts installing the server's package. */
  readonly onInstall?: (() => void) | undefined;
}

/** How to start a server in its sandbox. */
export interface LaunchPlan {
  readonly command: string;
  readonly args: readonly string[];
  /** The server's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Arguments that named host directories, replaced by the sandbox's work directory. */
  readonly substituted: readonly SubstitutedArgument[];
  readonly isolation: SandboxIsolation;
}

const NPX = new Set(['npx', 'npx.cmd']);

/** Whether `command` names an executable file, itself or on `path`. Not checked on Windows. */
function commandExists(command: string, path: string | undefined): boolean {
  if (process.platform === 'win32') return true;
  const runnable = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return runnable(command);
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && runnable(join(dir, command)));
}

/**
 * Prepares a stdio server's start in a probe sandbox: its command line made fit for the
 * sandbox (`sandboxCommandLine`), its environment (`sandboxEnvironment`, plus the host's
 * package caches so that `npx` and `uvx` need not download everything again), its own code
 * copied into the sandbox when it is a Node package (`copyServerPackage`; for `npx`, the
 * package is installed first, with its own time), and on Linux with bubblewrap the whole
 * start wrapped so that the host's files are read-only to it.
 *
 * @throws HintgateError `invalid_option` when `isolation: 'bubblewrap'` cannot be had;
 *   `mcp_connect_failed` when the command is not found or `npx` cannot install the package.
 */
export async function prepareLaunch(options: PrepareLaunchOptions): Promise<LaunchPlan> {
  const { sandbox } = options;
  const line = sandboxCommandLine(options.command, options.args, sandbox.work, options.cwd);
  const caches = options.hostCaches === false ? [] : hostPackageCaches();
  const env: Record<string, string> = {
    ...Object.fromEntries(caches.map((cache) => [cache.variable, cache.path])),
    ...sandboxEnvironment(sandbox, options.env, options.passEnv ?? []),
  };
  if (!commandExists(line.command, ownValue(env, 'PATH'))) {
    // Said here, before bubblewrap would say it less clearly.
    throw new HintgateError(
      'mcp_connect_failed',
      `Could not start ${options.where}: its command ${JSON.stringify(line.command)} was not found (${line.command.includes('/') ? 'no such executable file' : 'not on the PATH the sandbox gives it'}; spawn ENOENT). Check "command" in the configuration.`,
    );
  }
  // A cache the configuration points elsewhere is not the host's: it is not handed in.
  const handed = caches.filter((cache) => ownValue(env, cache.variable) === cache.path);

  let kind: IsolationKind = 'none';
  let reason: string | undefined;
  if ((options.isolation ?? 'auto') === 'none') {
    reason = 'turned off (--isolation none)';
  } else {
    const bubblewrap = await detectBubblewrap();
    if (bubblewrap.available) kind = 'bubblewrap';
    else if (options.isolation === 'bubblewrap') {
      throw new HintgateError(
        'invalid_option',
        `bubblewrap isolation was asked for, but ${bubblewrap.reason}. Install bubblewrap, or use --isolation auto.`,
      );
    } else reason = bubblewrap.reason;
  }
  const binds: BubblewrapBind[] = [
    { path: sandbox.root, writable: true },
    ...handed.map((cache) => ({ path: cache.path, writable: cache.writable })),
  ];
  const wrap = (command: string, args: readonly string[]) =>
    kind === 'bubblewrap'
      ? bubblewrapCommandLine({ command, args, cwd: sandbox.work, binds })
      : { command, args: [...args] };

  let command = line.command;
  let args: readonly string[] = line.args;
  let serverCopy: SandboxIsolation['serverCopy'];
  let notCopied: string | undefined;
  const into = join(sandbox.root, 'install');
  // The install folder and the dependencies stay read-only to the server, even where they
  // are inside a writable package cache (npx installs into npm's).
  const keepReadOnly = (copy: {
    readonly from: string;
    readonly dependencies: readonly string[];
  }) => {
    for (const path of [copy.from, ...copy.dependencies]) binds.push({ path, writable: false });
  };
  const npx = NPX.has(basename(line.command)) ? parseNpxArgs(line.args) : undefined;
  if (npx !== undefined) {
    options.onInstall?.();
    const installed = await installNpxPackages({
      npx: line.command,
      parsed: npx,
      wrap,
      env,
      cwd: sandbox.work,
      timeoutMs: options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS,
      where: options.where,
      signal: options.signal,
    });
    if (installed === undefined) {
      notCopied = 'npx installed the package, but which file it runs could not be told';
    } else if (!isNodeScript(installed.script)) {
      notCopied = `what npx runs (${installed.script}) is not a Node script`;
    } else {
      const copy = await copyServerPackage(installed.script, into);
      if (copy.copied) {
        serverCopy = { from: copy.from, to: copy.to };
        keepReadOnly(copy);
        command = 'node';
        args = [copy.script, ...npx.args];
        env.PATH = [installed.binDir, ownValue(env, 'PATH')].filter(Boolean).join(delimiter);
      } else notCopied = copy.reason;
    }
  } else {
    const index = nodeScriptIndex(line.command, line.args);
    const script = index === undefined ? undefined : line.args[index];
    if (index !== undefined && script !== undefined) {
      const copy = await copyServerPackage(script, into);
      if (copy.copied) {
        serverCopy = { from: copy.from, to: copy.to };
        keepReadOnly(copy);
        args = line.args.map((arg, at) => (at === index ? copy.script : arg));
      } else notCopied = copy.reason;
    } else if (isNodeScript(line.command) && line.command.includes('/')) {
      const copy = await copyServerPackage(line.command, into);
      if (copy.copied) {
        serverCopy = { from: copy.from, to: copy.to };
        keepReadOnly(copy);
        command = copy.script;
      } else notCopied = copy.reason;
    } else {
      notCopied = `it is not a Node script of an installed package (${basename(line.command)})`;
    }
  }
  const run = wrap(command, args);
  return {
    command: run.command,
    args: run.args,
    env,
    cwd: sandbox.work,
    substituted: line.substituted,
    isolation: {
      kind,
      ...(reason === undefined ? {} : { reason }),
      caches: handed,
      ...(serverCopy === undefined ? {} : { serverCopy }),
      ...(notCopied === undefined ? {} : { notCopied }),
    },
  };
}
