import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Extensions of tool modules: JavaScript, and TypeScript through a loader (see docs). */
export const TOOL_MODULE_EXTENSIONS = ['.js', '.mjs', '.ts', '.mts'] as const;

/** Files of a `tools/` folder: the modules to load, and the hash of every file under it. */
export interface ToolFiles {
  /** Absolute paths of the modules directly in the folder, sorted. */
  readonly modules: readonly string[];
  /**
   * `sha256:` over every regular file under the folder (helpers in subfolders included,
   * `node_modules` left out), with their relative paths: any change of code changes it.
   */
  readonly hash: string;
}

const isModuleName = (name: string): boolean =>
  !name.startsWith('.') &&
  !name.startsWith('_') &&
  !name.endsWith('.d.ts') &&
  !name.endsWith('.d.mts') &&
  !/\.(test|spec)\.[cm]?[jt]s$/.test(name) &&
  TOOL_MODULE_EXTENSIONS.some((extension) => name.endsWith(extension));

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** Regular files under `dir`, recursively, without `node_modules` and symlinked folders. */
async function walk(dir: string, into: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') await walk(path, into);
    } else if (entry.isFile()) {
      into.push(path);
    }
  }
}

/**
 * Lists a `tools/` folder: its modules (`.js`, `.mjs`, `.ts`, `.mts` directly in it; names
 * starting with `.` or `_`, declaration files and tests are left out, so helpers can live
 * beside them) and a hash of all its files. Resolves to `undefined` when the folder does
 * not exist.
 */
export async function findToolFiles(dir: string): Promise<ToolFiles | undefined> {
  let top: Dirent[];
  try {
    top = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  const files: string[] = [];
  await walk(dir, files);
  files.sort(compare);
  const whole = createHash('sha256');
  for (const file of files) {
    const name = relative(dir, file).split(sep).join('/');
    whole.update(`${name}\0${sha256(await readFile(file))}\n`);
  }
  const modules = top
    .filter((entry) => entry.isFile() && isModuleName(entry.name))
    .map((entry) => join(dir, entry.name))
    .sort(compare);
  return {
    modules,
    hash: `sha256:${whole.digest('hex')}`,
  };
}
