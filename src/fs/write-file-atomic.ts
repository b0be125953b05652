import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type FileLock, FileLockLostError } from './file-lock.js';

/**
 * Characters of a content given in parts that are written at once: small enough that the
 * parts of a batch die young (a 1 MiB batch of a big lock file outlived the young
 * generation and was promoted, growing the heap), large enough to be few writes.
 */
const WRITE_BATCH = 1 << 16;

/** Options of {@link writeFileAtomic}. */
export interface WriteFileAtomicOptions {
  /** Permission bits of a file it creates. Default `0o600`. */
  readonly mode?: number;
  /**
   * The lock under which the content was computed. Right before the rename it is checked to
   * be still held ({@link FileLock.isHeld}); when it is not, nothing is written and the
   * write rejects with {@link FileLockLostError}, so that a writer that stalled past the
   * lock's stale time cannot replace what another writer wrote meanwhile.
   */
  readonly lock?: FileLock;
}

/**
 * Replaces the file at `path` with `content` (UTF-8; a string, or strings written one after
 * the other, so that a large file need not be held whole) so that readers see either the old or
 * the new file, never a part: writes a temp file beside it, syncs it, renames it over
 * `path` and syncs the directory. On failure the temp file is removed and the fs error is
 * rethrown as it is (or {@link FileLockLostError} when `lock` was lost); `path` is then
 * unchanged. The directory must exist.
 */
export async function writeFileAtomic(
  path: string,
  content: string | Iterable<string>,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', options.mode ?? 0o600);
    if (typeof content === 'string') await handle.writeFile(content, 'utf8');
    else {
      // writeFile writes all of it, from the current position on; parts go in batches.
      let batch = '';
      for (const part of content) {
        batch += part;
        if (batch.length >= WRITE_BATCH) {
          await handle.writeFile(batch, 'utf8');
          batch = '';
        }
      }
      await handle.writeFile(batch, 'utf8');
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (options.lock !== undefined && !(await options.lock.isHeld())) {
      throw new FileLockLostError(options.lock.path);
    }
    await rename(temp, path);
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  // Make the rename itself durable; directories cannot be opened for sync on every platform.
  try {
    const directory = await open(dirname(path), 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  } catch {}
}
