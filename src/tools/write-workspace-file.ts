import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { fsErrorCode } from '../fs/index.js';
import type { WorkspaceDirectory } from './open-workspace-directory.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = constants;

/** What {@link writeWorkspaceFile} found and did. */
export interface WorkspaceFileWrite {
  /** Whether a file of that name was there before (it was replaced). */
  readonly replaced: boolean;
}

/** An error with the fs code `EISDIR`, for a name that is a directory. */
const isDirectory = (): Error => Object.assign(new Error('EISDIR'), { code: 'EISDIR' });

/**
 * Writes `data` as the file `name` of a checked workspace directory, atomically: into a new
 * temporary file of that directory (created exclusively, never through a link), flushed to
 * disk, then renamed over `name`, so readers see the old or the new content, never a part.
 * An existing file keeps its permission bits; a symbolic link of that name is replaced, not
 * followed. Everything goes through `directory` (see `openWorkspaceDirectory`): the
 * directory is checked again before the rename, and after it where no handle pins it, in
 * which case a file that landed outside is removed again and the write refused.
 *
 * Unlike `writeFileAtomic` of src/fs (a path, a lock, owner-only permission bits), it is
 * made for the workspace tools, which must never write outside the workspace.
 *
 * @throws the fs error (`EISDIR` when `name` is a directory), or a `Refused:` error when the
 * directory left the workspace; the temporary file is removed in every case.
 */
export async function writeWorkspaceFile(
  directory: WorkspaceDirectory,
  name: string,
  data: string | Uint8Array,
): Promise<WorkspaceFileWrite> {
  const target = directory.entry(name);
  let mode: number | undefined;
  let replaced = false;
  try {
    const stats = await lstat(target);
    if (stats.isDirectory()) throw isDirectory();
    replaced = true;
    if (stats.isFile()) mode = stats.mode & 0o7777;
  } catch (error) {
    if (fsErrorCode(error) !== 'ENOENT') throw error;
  }
  const temp = directory.entry(`.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
  let renamed = false;
  try {
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await directory.verify();
    await rename(temp, target);
    renamed = true;
    if (!directory.pinned) {
      try {
        await directory.verify();
      } catch (error) {
        // The path was redirected between the check and the rename: take the file back.
        await unlink(target).catch(() => undefined);
        throw error;
      }
    }
  } catch (error) {
    if (!renamed) await unlink(temp).catch(() => undefined);
    throw error;
  }
  return { replaced };
}
