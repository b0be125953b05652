import type { Dirent } from 'node:fs';
import { constants } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Directory entries a walk examines at most by default before it stops. */
export const DEFAULT_MAX_WALK_ENTRIES = 200_000;
/** Largest ignore file read, in bytes; a larger one is skipped. */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** Options of {@link walkWorkspaceFiles}. */
export interface WalkWorkspaceFilesOptions {
  /** Real absolute path of the workspace root (where `.gitignore` rules start). */
  readonly root: string;
  /** Real absolute directory to walk, inside `root`. */
  readonly base: string;
  /** Stops the walk when aborted. */
  readonly signal?: AbortSignal;
  /** Directory entries examined at most. Default {@link DEFAULT_MAX_WALK_ENTRIES}. */
  readonly maxEntries?: number;
  /**
   * Directories not to enter, by workspace-relative path (`/`-separated), besides `.git`
   * and what the ignore files exclude. Default: none.
   */
  readonly skipDirectory?: (path: string) => boolean;
}

/** A file the walk found. */
export interface WalkedFile {
  /** Path relative to the workspace root, `/`-separated. */
  readonly path: string;
  /** Absolute path (under the real root). */
  readonly absolute: string;
  /** True for a symbolic link (never followed by the walk itself). */
  readonly symlink: boolean;
}

/** How a walk ended. */
export interface WalkOutcome {
  /** False when the walk stopped at `maxEntries` or because the visitor said so. */
  readonly complete: boolean;
}

interface Rules {
  /** Workspace-relative directory the rules are anchored at ('' for the root). */
  readonly dir: string;
  /** The rules of that directory's ignore file(s). */
  readonly matcher: Ignore;
}

const toPosix = (path: string): string => path.split(sep).join('/');

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/**
 * The text of an ignore file, or '' when it is not one to read: only a regular file (not a
 * symbolic link, which git does not follow either, nor a FIFO or device) inside the
 * workspace and at most {@link MAX_IGNORE_FILE_BYTES} is read. The file is opened without
 * following links and without blocking, and checked again once open.
 */
const readIgnoreFile = async (root: string, path: string): Promise<string> => {
  try {
    if (!inside(root, await realpath(dirname(path)))) return '';
    const info = await lstat(path);
    if (!info.isFile() || info.size > MAX_IGNORE_FILE_BYTES) return '';
    const handle = await open(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.size > MAX_IGNORE_FILE_BYTES) return '';
      const buffer = Buffer.alloc(MAX_IGNORE_FILE_BYTES + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > MAX_IGNORE_FILE_BYTES) return '';
      }
      return buffer.toString('utf8', 0, length);
    } finally {
      await handle.close();
    }
  } catch {
    return ''; // Missing or unreadable: no rules, as with git.
  }
};

const loadRules = async (
  root: string,
  absolute: string,
  dir: string,
  files: readonly string[],
): Promise<Rules | undefined> => {
  const texts = await Promise.all(files.map((file) => readIgnoreFile(root, join(absolute, file))));
  const text = texts.join('\n');
  return text.trim() === '' ? undefined : { dir, matcher: ignore().add(text) };
};

const isIgnored = (stack: readonly Rules[], path: string, directory: boolean): boolean => {
  let ignored = false;
  for (const rules of stack) {
    const sub = rules.dir === '' ? path : path.slice(rules.dir.length + 1);
    const result = rules.matcher.test(directory ? `${sub}/` : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
};

/**
 * Walks the files under `base` depth first, in name order, and calls `visit` for each
 * until it returns false. It honours `.gitignore` files the way git does (the root's, the
 * ones in directories between the root and `base`, and nested ones, plus
 * `.git/info/exclude`; a later, deeper rule wins, `!pattern` re-includes), always skips
 * `.git`, and never follows symbolic links (they are reported as files). When `base` itself
 * is ignored, it was asked for explicitly: only the `.gitignore` files inside it apply. An
 * ignore file is read only when it is a regular file inside the workspace of at most
 * {@link MAX_IGNORE_FILE_BYTES}: a link, a FIFO, a device or a larger file is skipped.
 */
export async function walkWorkspaceFiles(
  options: WalkWorkspaceFilesOptions,
  visit: (file: WalkedFile) => boolean | Promise<boolean>,
): Promise<WalkOutcome> {
  const { root, base, signal } = options;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_WALK_ENTRIES;
  let seen = 0;
  const baseRel = toPosix(relative(root, base));
  const stack: Rules[] = [];
  const exclude = await loadRules(root, root, '', ['.git/info/exclude']);
  if (exclude !== undefined) stack.push(exclude);
  if (baseRel !== '') {
    const parts = baseRel.split('/');
    for (let depth = 0; depth < parts.length; depth += 1) {
      const dir = parts.slice(0, depth).join('/');
      const rules = await loadRules(root, join(root, dir), dir, ['.gitignore']);
      if (rules !== undefined) stack.push(rules);
    }
    if (isIgnored(stack, baseRel, true)) stack.length = 0;
  }

  const walk = async (absolute: string, dir: string, rules: Rules[]): Promise<boolean> => {
    signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch {
      return true; // Unreadable directories are skipped, as git skips them.
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const own = entries.some((entry) => entry.name === '.gitignore')
      ? await loadRules(root, absolute, dir, ['.gitignore'])
      : undefined;
    const scope = own === undefined ? rules : [...rules, own];
    for (const entry of entries) {
      seen += 1;
      if (seen > maxEntries) return false;
      if (entry.name === '.git') continue;
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      const directory = entry.isDirectory();
      if (isIgnored(scope, path, directory)) continue;
      if (directory && options.skipDirectory?.(path) === true) continue;
      const child = join(absolute, entry.name);
      if (directory) {
        if (!(await walk(child, path, scope))) return false;
      } else if (!(await visit({ path, absolute: child, symlink: entry.isSymbolicLink() }))) {
        return false;
      }
    }
    return true;
  };
  return { complete: await walk(base, baseRel, stack) };
}
