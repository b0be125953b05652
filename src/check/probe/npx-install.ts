import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join, sep } from 'node:path';
import { HintgateError } from '../../errors/index.js';
import { isPlainObject } from '../../tool/index.js';

/** An `npx` command line, read: what it installs and what it then runs. */
export interface NpxCommandLine {
  /** npx's own options to keep for the install (`--registry=...`). */
  readonly options: readonly string[];
  /** The package specs npx installs (`@scope/pkg@1.2.3`). */
  readonly packages: readonly string[];
  /** The program it runs: given (with `--package`), else chosen from the package's bins. */
  readonly command?: string;
  /** The arguments after the package or command. */
  readonly args: readonly string[];
}

/** npx options whose value is the next argument. */
const VALUE_OPTIONS = new Set([
  '--registry',
  '--cache',
  '--userconfig',
  '--workspace',
  '-w',
  '--node-options',
  '--script-shell',
]);

/**
 * Reads the arguments of `npx` (or `npm exec`): its options, the packages it installs and
 * what it runs. Undefined for what is not that simple (`--call`/`-c`, no package).
 */
export function parseNpxArgs(args: readonly string[]): NpxCommandLine | undefined {
  const options: string[] = [];
  const packages: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '-c' || arg === '--call' || arg.startsWith('--call=')) return undefined;
    if (arg === '-p' || arg === '--package') {
      const value = args[index + 1];
      if (value === undefined) return undefined;
      packages.push(value);
      index += 1;
      continue;
    }
    if (arg.startsWith('--package=')) {
      packages.push(arg.slice('--package='.length));
      continue;
    }
    if (VALUE_OPTIONS.has(arg)) {
      const value = args[index + 1];
      if (value === undefined) return undefined;
      options.push(`${arg}=${value}`);
      index += 1;
      continue;
    }
    if (arg === '--') {
      const [first, ...rest] = args.slice(index + 1);
      if (first === undefined) return undefined;
      return packages.length > 0
        ? { options, packages, command: first, args: rest }
        : { options, packages: [first], args: rest };
    }
    if (arg.startsWith('-')) {
      if (/^--(?:registry|cache|userconfig|workspace)=/.test(arg)) options.push(arg);
      continue;
    }
    const rest = args.slice(index + 1);
    return packages.length > 0
      ? { options, packages, command: arg, args: rest }
      : { options, packages: [arg], args: rest };
  }
  return undefined;
}

/** The package name of an npm spec (`@scope/pkg@1.2` is `@scope/pkg`); undefined for URLs and paths. */
export function packageNameOf(spec: string): string | undefined {
  const match = /^(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*|[a-z0-9][\w.-]*)(?:@[^/:]*)?$/i.exec(spec);
  return match?.[1];
}

/** The bin npx runs for a package: its only one, else the one named after the package. */
function binOf(manifest: Record<string, unknown>, name: string): string | undefined {
  const unscoped = name.replace(/^@[^/]+\//, '');
  const { bin } = manifest;
  if (typeof bin === 'string') return unscoped;
  if (!isPlainObject(bin)) return undefined;
  if (new Set(Object.values(bin)).size === 1) return Object.keys(bin)[0];
  return Object.hasOwn(bin, unscoped) ? unscoped : undefined;
}

/**
 * The one package npx installed into a folder of its cache (its `package.json` lists it), for
 * a spec that does not say its name (a tarball, a path, a URL).
 */
function installedName(folder: string): string | undefined {
  try {
    const data: unknown = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const dependencies = isPlainObject(data) ? data.dependencies : undefined;
    const names = isPlainObject(dependencies) ? Object.keys(dependencies) : [];
    return names.length === 1 ? names[0] : undefined;
  } catch {
    return undefined;
  }
}

/** Where npx installed what it runs, and the script that is. */
export interface NpxInstall {
  /** The `node_modules/.bin` folder npx put on `PATH`. */
  readonly binDir: string;
  /** The file the bin runs, inside the installed package. */
  readonly script: string;
}

/** Options of {@link installNpxPackages}. */
export interface InstallNpxOptions {
  /** The `npx` command as configured (`npx`, or a path to it). */
  readonly npx: string;
  readonly parsed: NpxCommandLine;
  /** Runs a command line, for isolation (bubblewrap); default: as it is. */
  readonly wrap?: (command: string, args: string[]) => { command: string; args: string[] };
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Time the install may take, in milliseconds. */
  readonly timeoutMs: number;
  /** Names the server in messages: `MCP server "memory"`. */
  readonly where: string;
  readonly signal?: AbortSignal | undefined;
}

const MARK = '@@hintgate-path@@';

/**
 * Lets `npx` install the packages of a server's command line (into the npm cache it is
 * given) and finds the script it would run, without running the server: `npx --yes
 * --package=<spec> -- node -e <print PATH>`. The install gets its own time, apart from the
 * server's connect timeout. Resolves to undefined when the script cannot be told (a bin that
 * is not a file of the package); rejects with `mcp_connect_failed` when npx fails or takes
 * too long.
 */
export async function installNpxPackages(
  options: InstallNpxOptions,
): Promise<NpxInstall | undefined> {
  const { parsed } = options;
  const line = [
    '--yes',
    ...parsed.options,
    ...parsed.packages.map((spec) => `--package=${spec}`),
    '--',
    'node',
    '-e',
    `process.stdout.write(${JSON.stringify(MARK)}+JSON.stringify(process.env.PATH))`,
  ];
  const run = options.wrap?.(options.npx, line) ?? { command: options.npx, args: line };
  const output = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(run.command, run.args, {
      cwd: options.cwd,
      // npm would otherwise look for a newer npm on every start, in the empty home.
      env: { npm_config_update_notifier: 'false', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout = `${stdout}${String(chunk)}`.slice(-100_000);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${String(chunk)}`.slice(-2000);
    });
    const fail = (why: string, cause?: unknown) =>
      reject(
        new HintgateError(
          'mcp_connect_failed',
          `${options.where}: npx could not install ${parsed.packages.join(', ')} (${why}).${stderr.trim() === '' ? '' : ` Its stderr ended with: ${stderr.trim().slice(-1000)}`}`,
          cause === undefined ? undefined : { cause },
        ),
      );
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.aborted === true ? reject(options.signal.reason) : fail(error.message, error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (options.signal?.aborted === true) reject(options.signal.reason);
      else if (signal === 'SIGKILL' && code === null) {
        fail(
          `it took longer than ${Math.round(options.timeoutMs / 1000)} s; raise it with --install-timeout SECONDS`,
        );
      } else if (code !== 0) fail(`exit ${code ?? signal}`);
      else resolve(stdout);
    });
  });
  const at = output.lastIndexOf(MARK);
  if (at === -1) return undefined;
  let path: unknown;
  try {
    path = JSON.parse(output.slice(at + MARK.length));
  } catch {
    return undefined;
  }
  if (typeof path !== 'string') return undefined;
  const binDirs = path
    .split(delimiter)
    .filter((entry) => entry.endsWith(`${sep}node_modules${sep}.bin`));
  // npx's own install folder (in the npm cache's _npx) is the one it runs from.
  binDirs.sort(
    (a, b) => Number(b.includes(`${sep}_npx${sep}`)) - Number(a.includes(`${sep}_npx${sep}`)),
  );
  for (const binDir of binDirs) {
    let bin = parsed.command;
    if (bin === undefined) {
      const name =
        packageNameOf(parsed.packages[0] ?? '') ?? installedName(dirname(dirname(binDir)));
      const manifest = name === undefined ? undefined : join(dirname(binDir), name, 'package.json');
      if (manifest === undefined || !existsSync(manifest)) continue;
      try {
        const data: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
        bin = isPlainObject(data) && name !== undefined ? binOf(data, name) : undefined;
      } catch {
        continue;
      }
    }
    if (bin === undefined || basename(bin) !== bin) continue;
    const link = join(binDir, bin);
    if (!existsSync(link)) continue;
    try {
      return { binDir, script: realpathSync(link) };
    } catch {
      // A dangling link: look on.
    }
  }
  return undefined;
}
