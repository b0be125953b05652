import { constants, readlinkSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { fsErrorCode } from '../fs/index.js';
import { isWithin } from './resolve-in-workspace.js';

/**
 * A directory of the workspace, checked to be inside it, through which a file tool creates,
 * reads and renames files by name. See {@link openWorkspaceDirectory}.
 */
export interface WorkspaceDirectory {
  /**
   * A path that names `name` (one path component) inside this very directory. With
   * `/proc`, it goes through the open directory handle (`/proc/self/fd/N/name`), so no
   * parent swapped for a symbolic link since the check can redirect it.
   */
  entry(name: string): string;
  /**
   * Checks again that the directory lies inside the workspace, by its real path; throws a
   * `Refused:` error when it does not. Call it before and after the rename that publishes
   * a file.
   */
  verify(): Promise<void>;
  /** Whether {@link WorkspaceDirectory.entry} goes through an open handle (`/proc`). */
  readonly pinned: boolean;
  /** Closes the directory handle. */
  close(): Promise<void>;
}

/** Options of {@link openWorkspaceDirectory}. */
export interface OpenWorkspaceDirectoryOptions {
  /** Create missing directories on the way (`write_file`). */
  readonly create: boolean;
  /** The path the tool was given, workspace-relative, for messages. */
  readonly shown: string;
  /**
   * Whether to go through `/proc/self/fd` handles. Default: on Linux, when `/proc` is
   * mounted. False checks paths instead, as on other systems.
   */
  readonly procfs?: boolean;
}

const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = constants;
const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/** The path of an open handle's directory through procfs. */
const procPath = (handle: FileHandle): string => `/proc/self/fd/${handle.fd}`;

/** Where an open handle really is (`readlink /proc/self/fd/N`), or undefined without it. */
const realPathOf = (handle: FileHandle): string | undefined => {
  try {
    return readlinkSync(procPath(handle));
  } catch {
    return undefined;
  }
};

/** The refusal for a directory that moved, or was swapped for a link, during the call. */
const moved = (shown: string, part: string): Error =>
  new Error(
    `Refused: "${shown}" changed while it was being written: "${part}" is no longer a directory inside the workspace (it was moved, or replaced by a symbolic link or a file). Nothing was written there.`,
  );

/** Opens one component below `parent` without following a link, creating it if asked. */
async function openChild(
  parent: FileHandle,
  name: string,
  create: boolean,
  refuse: () => Error,
): Promise<FileHandle> {
  const path = join(procPath(parent), name);
  try {
    return await open(path, DIRECTORY_FLAGS);
  } catch (error) {
    const code = fsErrorCode(error);
    if (code === 'ENOENT' && create) {
      try {
        await mkdir(path);
      } catch (made) {
        if (fsErrorCode(made) !== 'EEXIST') throw made;
      }
      try {
        return await open(path, DIRECTORY_FLAGS);
      } catch (again) {
        if (fsErrorCode(again) === 'ELOOP' || fsErrorCode(again) === 'ENOTDIR') throw refuse();
        throw again;
      }
    }
    if (code === 'ELOOP' || code === 'ENOTDIR') throw refuse();
    throw error;
  }
}

/** With `/proc`: a handle per component, each opened without following links. */
async function openPinned(
  rootHandle: FileHandle,
  root: string,
  parts: readonly string[],
  shown: string,
  create: boolean,
): Promise<WorkspaceDirectory> {
  let current = rootHandle;
  try {
    for (const [index, name] of parts.entries()) {
      const part = parts.slice(0, index + 1).join('/');
      const next = await openChild(current, name, create, () => moved(shown, part));
      await current.close();
      current = next;
    }
  } catch (error) {
    await current.close().catch(() => {});
    throw error;
  }
  const handle = current;
  const part = parts.length === 0 ? '.' : parts.join('/');
  const verify = async (): Promise<void> => {
    const real = realPathOf(handle);
    if (real === undefined || !isWithin(root, real)) throw moved(shown, part);
  };
  try {
    await verify();
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
  return {
    pinned: true,
    entry: (name) => join(procPath(handle), name),
    verify,
    close: () => handle.close(),
  };
}

/** Without `/proc`: each component checked with `lstat`, the whole checked by `realpath`. */
async function openChecked(
  root: string,
  parts: readonly string[],
  shown: string,
  create: boolean,
): Promise<WorkspaceDirectory> {
  let path = root;
  for (const [index, name] of parts.entries()) {
    path = join(path, name);
    const part = parts.slice(0, index + 1).join('/');
    let stats = await lstat(path).catch((error: unknown) => {
      if (fsErrorCode(error) === 'ENOENT' && create) return undefined;
      throw error;
    });
    if (stats === undefined) {
      await mkdir(path).catch((error: unknown) => {
        if (fsErrorCode(error) !== 'EEXIST') throw error;
      });
      stats = await lstat(path);
    }
    if (!stats.isDirectory()) throw moved(shown, part);
  }
  const directory = path;
  const part = parts.length === 0 ? '.' : parts.join('/');
  const verify = async (): Promise<void> => {
    const real = await realpath(directory).catch(() => undefined);
    if (real !== directory || !isWithin(root, real)) throw moved(shown, part);
  };
  await verify();
  return {
    pinned: false,
    entry: (name) => join(directory, name),
    verify,
    close: async () => {},
  };
}

/**
 * Opens the directory `relativeDir` (`/`-separated, relative to the workspace's real root
 * `root`; `''` or `.` for the root) for a file tool to write in, so that a directory
 * swapped for a symbolic link to somewhere outside, at any moment, cannot make the tool
 * write outside the workspace.
 *
 * Where `/proc` is available (Linux), each component is opened from the one above through
 * its open handle (`/proc/self/fd/N/<name>`, the equivalent of `openat`) with `O_NOFOLLOW`
 * and `O_DIRECTORY`, created first when missing and `create` is set; the last handle's
 * real path (`readlink /proc/self/fd/N`) must lie inside `root`. Files are then created and
 * renamed through that handle, so they land in the directory that was checked, whatever
 * happens to the path meanwhile. Elsewhere (macOS, Windows) the components are checked with
 * `lstat` and the directory's `realpath` must be itself inside `root`; the caller checks
 * again after writing ({@link WorkspaceDirectory.verify}).
 *
 * @throws Error starting with `Refused:` when a component is a symbolic link or a file, or
 * the directory is not inside the workspace; the fs error otherwise (`ENOENT` without
 * `create`).
 */
export async function openWorkspaceDirectory(
  root: string,
  relativeDir: string,
  options: OpenWorkspaceDirectoryOptions,
): Promise<WorkspaceDirectory> {
  const parts = relativeDir.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) throw moved(options.shown, relativeDir);
  let rootHandle: FileHandle | undefined;
  if (options.procfs ?? process.platform === 'linux') {
    rootHandle = await open(root, DIRECTORY_FLAGS).catch((error: unknown) => {
      if (fsErrorCode(error) === 'ELOOP' || fsErrorCode(error) === 'ENOTDIR') {
        throw moved(options.shown, '.');
      }
      throw error;
    });
    const real = realPathOf(rootHandle);
    if (real === undefined) {
      // No procfs mounted: fall back to checking paths.
      await rootHandle.close();
      rootHandle = undefined;
    } else if (real !== root) {
      await rootHandle.close();
      throw moved(options.shown, '.');
    }
  }
  if (rootHandle !== undefined) {
    return openPinned(rootHandle, root, parts, options.shown, options.create);
  }
  return openChecked(root, parts, options.shown, options.create);
}
