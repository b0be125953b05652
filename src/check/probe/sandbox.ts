import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { nullRecord, ownValue } from '../../tool/index.js';

/** The directories of a probe sandbox, all absolute and inside {@link Sandbox.root}. */
export interface SandboxInfo {
  /** The temp directory holding everything else. */
  readonly root: string;
  /** The server's working directory, seeded with {@link SEEDED_FILES}; offered as its root. */
  readonly work: string;
  /** `HOME` of the server. */
  readonly home: string;
  /** `TMPDIR`, `TEMP` and `TMP` of the server. */
  readonly tmp: string;
  /** `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `XDG_CACHE_HOME` and `XDG_STATE_HOME`. */
  readonly xdg: {
    readonly config: string;
    readonly data: string;
    readonly cache: string;
    readonly state: string;
  };
  /** Whether the sandbox is left on disk after the probe (for debugging). */
  readonly kept: boolean;
}

/** A sandbox on disk, until {@link Sandbox.dispose}. */
export interface Sandbox extends SandboxInfo {
  /** A seeded text file, for synthesized path arguments. */
  readonly sampleFile: string;
  /** A seeded directory holding a file, for synthesized directory arguments. */
  readonly sampleDir: string;
  /** Removes the sandbox, unless it is kept. Never throws. */
  dispose(): Promise<void>;
}

/** Files written into the work directory before the server starts (relative path, text). */
export const SEEDED_FILES: readonly (readonly [string, string])[] = [
  ['notes.txt', 'hintgate probe sample file\nsecond line\n'],
  ['docs/readme.md', '# Sample\n\nA nested file for directory tools.\n'],
  ['docs/data.json', '{"sample": true}\n'],
];

/** Options of {@link createSandbox}. */
export interface CreateSandboxOptions {
  /** Parent of the sandbox directory. Default `os.tmpdir()`. */
  readonly parent?: string;
  /** Leave the sandbox on disk after {@link Sandbox.dispose}. Default `false`. */
  readonly keep?: boolean;
}

/** Creates a fresh sandbox: empty home, temp and XDG directories, and a seeded work dir. */
export async function createSandbox(options: CreateSandboxOptions = {}): Promise<Sandbox> {
  // realpath: on macOS the temp dir is behind a symlink, and servers report resolved paths.
  const root = await realpath(await mkdtemp(join(options.parent ?? tmpdir(), 'hintgate-probe-')));
  const dirs = {
    work: join(root, 'work'),
    home: join(root, 'home'),
    tmp: join(root, 'tmp'),
    xdg: {
      config: join(root, 'xdg', 'config'),
      data: join(root, 'xdg', 'data'),
      cache: join(root, 'xdg', 'cache'),
      state: join(root, 'xdg', 'state'),
    },
  };
  for (const dir of [dirs.work, dirs.home, dirs.tmp, ...Object.values(dirs.xdg)]) {
    await mkdir(dir, { recursive: true });
  }
  for (const [relative, text] of SEEDED_FILES) {
    const file = join(dirs.work, relative);
    await mkdir(resolve(file, '..'), { recursive: true });
    await writeFile(file, text);
  }
  const kept = options.keep ?? false;
  return {
    root,
    ...dirs,
    kept,
    sampleFile: join(dirs.work, 'notes.txt'),
    sampleDir: join(dirs.work, 'docs'),
    async dispose() {
      if (kept) return;
      await rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
    },
  };
}

/**
 * Host variables handed to the server besides what the configuration passes: only `PATH`, so
 * that `node`, `npx` and the like are found. (The MCP SDK's stdio transport also passes
 * `LOGNAME`, `SHELL`, `TERM` and `USER` of the host on POSIX, unless the configuration sets
 * them.)
 */
export const PASSED_HOST_VARIABLES: readonly string[] = ['PATH'];

/**
 * The environment of the server in the sandbox: `PATH` and the variables named in `pass` from
 * the host, `configured` (the server's own configuration) over them, and the sandbox's home,
 * temp and XDG directories over everything.
 */
export function sandboxEnvironment(
  sandbox: SandboxInfo,
  configured: Readonly<Record<string, string>> = {},
  pass: readonly string[] = [],
  host: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env = nullRecord<string>();
  for (const name of [...PASSED_HOST_VARIABLES, ...pass]) {
    const value = ownValue(host, name);
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    ...configured,
    HOME: sandbox.home,
    USERPROFILE: sandbox.home,
    TMPDIR: sandbox.tmp,
    TEMP: sandbox.tmp,
    TMP: sandbox.tmp,
    XDG_CONFIG_HOME: sandbox.xdg.config,
    XDG_DATA_HOME: sandbox.xdg.data,
    XDG_CACHE_HOME: sandbox.xdg.cache,
    XDG_STATE_HOME: sandbox.xdg.state,
  };
}

/** An argument of the server's command line, replaced by the sandbox's work directory. */
export interface SubstitutedArgument {
  /** Position in `args`. */
  readonly index: number;
  /** The host directory the argument named. */
  readonly from: string;
}

/** A command line made fit to run in the sandbox, by {@link sandboxCommandLine}. */
export interface SandboxCommandLine {
  readonly command: string;
  readonly args: string[];
  /** Arguments that named a host directory and now name the sandbox's work directory. */
  readonly substituted: SubstitutedArgument[];
}

const pathLike = (value: string): boolean =>
  value !== '' && (isAbsolute(value) || value.startsWith('.') || value.includes('/'));

const kindOf = (absolute: string): 'dir' | 'file' | undefined => {
  try {
    if (!existsSync(absolute)) return undefined;
    return statSync(absolute).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
};

/**
 * Prepares a server's command line for the sandbox, where it runs with the sandbox's work
 * directory as its working directory:
 *
 * - an argument that names an existing directory on the host (an absolute path, or one
 *   relative to `cwd` that starts with `.` or holds a `/`; a bare word such as `stdio` is
 *   left alone) is replaced by the sandbox's work directory. Servers such as
 *   `@modelcontextprotocol/server-filesystem` take the directories they may touch as
 *   arguments; the probe must not let them touch the host's. `--root=/some/dir` is rewritten
 *   after the `=`.
 * - a relative command or argument that names an existing file relative to `cwd` (a script)
 *   is made absolute, so that it is still found from the sandbox.
 */
export function sandboxCommandLine(
  command: string,
  args: readonly string[],
  work: string,
  cwd: string = process.cwd(),
): SandboxCommandLine {
  const substituted: SubstitutedArgument[] = [];
  const rewrite = (arg: string, index: number): string => {
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const value = eq >= 0 ? arg.slice(eq + 1) : arg;
    if (!pathLike(value)) return arg;
    const absolute = resolve(cwd, value);
    const kind = kindOf(absolute);
    if (kind === 'dir') {
      substituted.push({ index, from: absolute });
      return eq >= 0 ? `${arg.slice(0, eq + 1)}${work}` : work;
    }
    if (kind === 'file' && !isAbsolute(value)) {
      return eq >= 0 ? `${arg.slice(0, eq + 1)}${absolute}` : absolute;
    }
    return arg;
  };
  const commandPath = resolve(cwd, command);
  return {
    command: pathLike(command) && kindOf(commandPath) === 'file' ? commandPath : command,
    args: args.map(rewrite),
    substituted,
  };
}
