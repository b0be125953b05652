import { closeSync, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { cp, lstat, mkdir, readdir, symlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Most files of a package copied into the sandbox; a bigger one runs where it is. */
const MAX_FILES = 3000;
/** Most bytes of a package copied into the sandbox. */
const MAX_BYTES = 64 * 1024 * 1024;

/** Node options whose value is the next argument. */
const NODE_VALUE_OPTIONS = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--env-file',
  '--conditions',
  '-C',
  '--inspect-port',
  '--title',
]);

const NODE_COMMANDS = new Set(['node', 'nodejs', 'node.exe']);

/**
 * Where the script is in a Node command line: the first argument of `node` that is not an
 * option (nor an option's value). Undefined for `node -e`/`-p`, for no script, or when the
 * command is not Node.
 */
export function nodeScriptIndex(command: string, args: readonly string[]): number | undefined {
  if (!NODE_COMMANDS.has(basename(command)) && command !== process.execPath) return undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') return undefined;
    if (arg === '--') return index + 1 < args.length ? index + 1 : undefined;
    if (NODE_VALUE_OPTIONS.has(arg)) {
      index += 1;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return index;
  }
  return undefined;
}

/** The nearest directory at or above `file` that holds a `package.json`. */
function packageRoot(file: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The `node_modules` directories above `dir`, nearest first. */
function enclosingNodeModules(dir: string): string[] {
  const found: string[] = [];
  let at = dirname(dir);
  for (;;) {
    if (basename(at) === 'node_modules') found.push(at);
    const parent = dirname(at);
    if (parent === at) return found;
    at = parent;
  }
}

/** Counts files and bytes under `dir` (not following links, not `node_modules`), up to the caps. */
async function tooBig(dir: string): Promise<string | undefined> {
  let files = 0;
  let bytes = 0;
  const walk = async (at: string, top: boolean): Promise<string | undefined> => {
    for (const name of await readdir(at)) {
      if (top && name === 'node_modules') continue;
      const path = join(at, name);
      const stat = await lstat(path);
      if (stat.isDirectory()) {
        const over = await walk(path, false);
        if (over !== undefined) return over;
      } else {
        files += 1;
        bytes += stat.size;
        if (files > MAX_FILES) return `it has over ${MAX_FILES} files`;
        if (bytes > MAX_BYTES) return `it is over ${MAX_BYTES / 1024 / 1024} MB`;
      }
    }
    return undefined;
  };
  return walk(dir, true);
}

/** The server's package, copied into the sandbox. */
export interface CopiedPackage {
  /** The package's install folder on the host. */
  readonly from: string;
  /** Its copy in the sandbox, which the server runs from. */
  readonly to: string;
  /** `script` (a file of the package) as a path into the copy. */
  readonly script: string;
  /** The `node_modules` folders the copy finds its dependencies in (links to the host's). */
  readonly dependencies: readonly string[];
}

/** Outcome of {@link copyServerPackage}: the copy, or why the server runs where it is. */
export type PackageCopy =
  | ({ readonly copied: true } & CopiedPackage)
  | { readonly copied: false; readonly reason: string };

/**
 * Copies the installed package that `script` belongs to (the nearest folder with a
 * `package.json`, inside a `node_modules` folder) into `into`, so that the server's own code
 * runs from the sandbox: a server that writes next to its code (server-memory keeps
 * `memory.jsonl` beside its `dist/index.js`) then writes into the sandbox, where the probe
 * sees it, and never into its install folder. The package's dependencies are not copied:
 * `node_modules` links in the copy lead to the folders they were found in, read-only under
 * OS isolation. A package of more than 3000 files or 64 MB, or a script that is not in an
 * installed package (a project of your own), is not copied.
 */
export async function copyServerPackage(script: string, into: string): Promise<PackageCopy> {
  let file: string;
  try {
    file = realpathSync(script);
    if (!statSync(file).isFile()) return { copied: false, reason: `${script} is not a file` };
  } catch {
    return { copied: false, reason: `${script} does not exist` };
  }
  const root = packageRoot(file);
  const chain = root === undefined ? [] : enclosingNodeModules(root);
  if (root === undefined || chain.length === 0) {
    return {
      copied: false,
      reason: `${file} is not part of an installed package (no package.json in a node_modules folder above it)`,
    };
  }
  const big = await tooBig(root);
  if (big !== undefined)
    return { copied: false, reason: `its package ${root} is too big to copy: ${big}` };
  // One level per enclosing node_modules, so that Node finds each where it looks: the
  // nearest beside the copy, the next one level up, and so on.
  let base = into;
  await mkdir(base, { recursive: true });
  for (let level = chain.length - 1; level >= 0; level -= 1) {
    await symlink(chain[level] as string, join(base, 'node_modules'), 'junction');
    if (level > 0) {
      base = join(base, `up${level}`);
      await mkdir(base);
    }
  }
  const to = join(base, basename(root));
  await cp(root, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => resolve(source) !== join(root, 'node_modules'),
  });
  if (existsSync(join(root, 'node_modules'))) {
    await symlink(join(root, 'node_modules'), join(to, 'node_modules'), 'junction');
  }
  const inside = relative(root, file);
  return {
    copied: true,
    from: root,
    to,
    script: isAbsolute(inside) || inside.startsWith(`..${sep}`) ? file : join(to, inside),
    dependencies: chain,
  };
}

/** Whether a file is JavaScript (`.js`, `.mjs`, `.cjs`) or starts with a `#!` line that runs Node. */
export function isNodeScript(file: string): boolean {
  if (/\.(c|m)?js$/.test(file)) return true;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(200);
    const read = readSync(fd, head, 0, head.length, 0);
    return /^#![^\n]*\bnode\b/.test(head.subarray(0, read).toString('utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
