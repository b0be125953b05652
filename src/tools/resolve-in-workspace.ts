import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { HintgateError } from '../errors/index.js';
import { describeFsError } from './describe-fs-error.js';

/** A path a tool may use: inside the workspace once every symbolic link is resolved. */
export interface WorkspacePath {
  /** Absolute path with the symbolic links of its existing part resolved: what I/O uses. */
  readonly absolute: string;
  /** The same path relative to the workspace's real root, `/`-separated; `.` for the root. */
  readonly relative: string;
  /** True when the path itself exists (false for a file about to be created). */
  readonly exists: boolean;
  /** Real path of the workspace root, against which `relative` is given. */
  readonly root: string;
}

const within = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** Programming errors, as opposed to refusals of a path a model gave. */
const checkArguments = (where: string, workspace: unknown, input: unknown): void => {
  if (typeof workspace !== 'string' || !isAbsolute(workspace)) {
    throw new HintgateError(
      'invalid_option',
      `${where}: workspace must be an absolute path, got ${typeof workspace === 'string' ? JSON.stringify(workspace) : typeof workspace}.`,
    );
  }
  if (typeof input !== 'string') {
    throw new HintgateError('invalid_option', `${where}: the path must be a string.`);
  }
};

const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

const refuse = (message: string): never => {
  throw new Error(`Refused: ${message}`);
};

/** Real root of the workspace. */
const realRoot = (workspace: string): string => {
  try {
    return realpathSync.native(workspace);
  } catch (error) {
    throw new Error(`The workspace "${workspace}" cannot be opened: ${(error as Error).message}`, {
      cause: error,
    });
  }
};

/**
 * Longest path accepted, in characters: Linux's PATH_MAX. A longer one cannot name a file,
 * and resolving one of a megabyte part by part would hold the main thread for minutes.
 */
const MAX_PATH_CHARS = 4096;

/** The lexical target of `input` under the real root; refuses what leaves the workspace. */
const lexicalTarget = (workspace: string, root: string, input: string): string => {
  if (input.length > MAX_PATH_CHARS) {
    refuse(
      `the path is ${input.length} characters long; paths of at most ${MAX_PATH_CHARS} characters can name a file.`,
    );
  }
  if (input.includes('\0')) refuse(`the path ${JSON.stringify(input)} contains a NUL byte.`);
  if (isAbsolute(input)) {
    const path = normalize(input);
    if (within(workspace, path)) return join(root, relative(workspace, path));
    if (within(root, path)) return path;
    return refuse(
      `"${input}" is an absolute path outside the workspace (${workspace}). Use a path relative to the workspace root, such as "src/index.ts".`,
    );
  }
  const path = resolve(workspace, input);
  if (!within(workspace, path)) {
    refuse(
      `"${input}" leads out of the workspace through "..". Only files inside the workspace (${workspace}) can be used; give a path relative to its root.`,
    );
  }
  return join(root, relative(workspace, path));
};

/**
 * Resolves a path given to a workspace tool: relative to the workspace root, or absolute
 * but inside the workspace. Symbolic links are resolved (`realpath`) on the deepest part of
 * the path that exists, so a link anywhere along it, to a file or a directory, is followed
 * and must end inside the workspace; the part that does not exist yet (a file about to be
 * written) is appended to that. Synchronous on purpose: it also derives resource keys, which
 * the runtime asks for synchronously, and costs a few `lstat`s.
 *
 * @param workspace Absolute path of the workspace.
 * @param input The path as the model gave it; empty means the root.
 * @throws Error whose message starts with `Refused:` and says why, for `..` that leaves the
 * workspace, an absolute path outside it, a symbolic link that resolves outside it or
 * points nowhere, a NUL byte, or more than 4,096 characters.
 */
export function resolveInWorkspace(workspace: string, input: string): WorkspacePath {
  checkArguments('resolveInWorkspace', workspace, input);
  const root = realRoot(workspace);
  let current = lexicalTarget(workspace, root, input === '' ? '.' : input);
  const tail: string[] = [];
  let real: string;
  for (;;) {
    try {
      real = realpathSync.native(current);
      break;
    } catch (error) {
      const code = errorCode(error);
      // A loop of links, a name too long: said in words, never a bare ELOOP.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw describeFsError(error, input);
    }
    let dangling: string | undefined;
    try {
      if (lstatSync(current).isSymbolicLink()) dangling = readlinkSync(current);
    } catch {
      // Does not exist at all: a part still to be created.
    }
    if (dangling !== undefined) {
      refuse(
        `"${input}" goes through the symbolic link "${relative(root, current)}", whose target "${dangling}" does not exist; links are only followed to existing files and directories.`,
      );
    }
    const parent = dirname(current);
    if (parent === current) throw new Error(`No part of "${input}" exists.`);
    tail.unshift(basename(current));
    current = parent;
  }
  const absolute = tail.length === 0 ? real : join(real, ...tail);
  if (!within(root, absolute)) {
    refuse(
      `"${input}" resolves through a symbolic link to "${real}", which is outside the workspace (${workspace}). Only files inside the workspace can be used.`,
    );
  }
  const rel = relative(root, absolute).split(sep).join('/');
  return { absolute, relative: rel === '' ? '.' : rel, exists: tail.length === 0, root };
}

const MAX_LINK_HOPS = 40;

/**
 * Where an absolute path really leads, without confining it: `realpath` of its deepest
 * existing part plus the rest, following a dangling symbolic link to where it points (up
 * to 40 links), since a file created there later is what the link will name. Used for
 * places that must be recognized however they are spelled (protected paths, redirection
 * targets).
 */
export function resolveLoosely(absolute: string): string {
  let current = normalize(absolute);
  const tail: string[] = [];
  for (let hops = 0; ; ) {
    try {
      const real = realpathSync.native(current);
      return tail.length === 0 ? real : join(real, ...tail);
    } catch {
      // Resolved below, part by part.
    }
    let target: string | undefined;
    try {
      if (lstatSync(current).isSymbolicLink()) target = readlinkSync(current);
    } catch {
      // Does not exist at all.
    }
    if (target !== undefined && hops < MAX_LINK_HOPS) {
      hops += 1;
      current = resolve(dirname(current), target);
      continue;
    }
    const parent = dirname(current);
    if (parent === current) return tail.length === 0 ? current : join(current, ...tail);
    tail.unshift(basename(current));
    current = parent;
  }
}

/** True when `path` is `root` or lies under it (both absolute and normalized). */
export function isWithin(root: string, path: string): boolean {
  return within(root, path);
}

/**
 * The resource key `file:<path>` of a path given to a workspace tool: the path as
 * {@link resolveInWorkspace} resolves it, relative to the workspace root, so that two
 * spellings of one file (`./a.txt`, an absolute path, a link inside the workspace) are one
 * key. A path that would be refused keys as its absolute lexical form, since the call fails
 * before touching anything; one longer than 4,096 characters keys as the whole workspace.
 */
export function workspaceFileKey(workspace: string, input: string | undefined): string {
  checkArguments('workspaceFileKey', workspace, input ?? '.');
  const path = input ?? '.';
  // Too long to name a file, and too long to key by (the scheduler keys every parent):
  // the whole workspace, which orders it against everything until it fails.
  if (path.length > MAX_PATH_CHARS) return 'file:';
  try {
    const resolved = resolveInWorkspace(workspace, path);
    return resolved.relative === '.' ? 'file:' : `file:${resolved.relative}`;
  } catch {
    return `file:${resolve(workspace, path)}`;
  }
}
