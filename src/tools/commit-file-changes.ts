import { unlink } from 'node:fs/promises';
import { posix } from 'node:path';
import { fsErrorCode } from '../fs/index.js';
import { describeFsError } from './describe-fs-error.js';
import { openWorkspaceDirectory, type WorkspaceDirectory } from './open-workspace-directory.js';
import { writeWorkspaceFile } from './write-workspace-file.js';

/** One file's change, computed in full before anything is written. */
export interface FileChange {
  /** Workspace-relative path (as `resolveInWorkspace` gives it). */
  readonly path: string;
  /** The file's bytes before, or undefined when it did not exist. */
  readonly before: Buffer | undefined;
  /** The new text, or undefined to delete the file. */
  readonly after: string | undefined;
}

/** Where one file of a commit lives, once its directory is open. */
interface Placed {
  readonly change: FileChange;
  readonly directory: WorkspaceDirectory;
  readonly name: string;
}

const remove = async (directory: WorkspaceDirectory, name: string): Promise<void> => {
  await directory.verify();
  try {
    await unlink(directory.entry(name));
  } catch (error) {
    if (fsErrorCode(error) !== 'ENOENT') throw error;
  }
};

const apply = async ({ change, directory, name }: Placed): Promise<void> => {
  if (change.after === undefined) await remove(directory, name);
  else await writeWorkspaceFile(directory, name, change.after);
};

/** Puts a file back as it was before the commit. */
const undo = async ({ change, directory, name }: Placed): Promise<void> => {
  if (change.before === undefined) await remove(directory, name);
  else await writeWorkspaceFile(directory, name, change.before);
};

/**
 * Writes a set of file changes that were all computed beforehand (a patch whose every hunk
 * applied), each file atomically and through a handle on its checked directory, like
 * `write_file` (see `openWorkspaceDirectory`): a directory swapped for a symbolic link
 * cannot redirect a write or a deletion outside the workspace. Missing parent directories
 * of new files are created. When one change fails, the ones written before it are put back
 * (the old bytes rewritten, created files removed), so that the files end as they were.
 *
 * @param root Real path of the workspace root; the changes' paths are relative to it.
 * @throws Error naming the file that could not be written and saying that the others were
 * restored (or which could not be).
 */
export async function commitFileChanges(
  root: string,
  changes: readonly FileChange[],
): Promise<void> {
  const opened: WorkspaceDirectory[] = [];
  const done: Placed[] = [];
  let current: FileChange | undefined;
  try {
    const placed: Placed[] = [];
    for (const change of changes) {
      current = change;
      const directory = await openWorkspaceDirectory(root, posix.dirname(change.path), {
        create: change.after !== undefined,
        shown: change.path,
      });
      opened.push(directory);
      placed.push({ change, directory, name: posix.basename(change.path) });
    }
    for (const entry of placed) {
      current = entry.change;
      await apply(entry);
      done.push(entry);
    }
  } catch (error) {
    const failed = current?.path ?? '?';
    const described = describeFsError(error, failed) as Error;
    const lost: string[] = [];
    for (const entry of done.reverse()) {
      try {
        await undo(entry);
      } catch {
        lost.push(entry.change.path);
      }
    }
    const restored =
      done.length === 0
        ? 'Nothing was changed.'
        : lost.length === 0
          ? `The ${done.length} file${done.length === 1 ? '' : 's'} written before it ${done.length === 1 ? 'was' : 'were'} put back as ${done.length === 1 ? 'it was' : 'they were'}.`
          : `Could not put back ${lost.join(', ')}; check ${lost.length === 1 ? 'it' : 'them'} with read_file.`;
    throw new Error(`Writing ${failed} failed: ${described.message} ${restored}`, {
      cause: error,
    });
  } finally {
    await Promise.all(opened.map((directory) => directory.close().catch(() => undefined)));
  }
}
