import { emptyLockFile, type LockFile, readLockFileText } from './lock-file.js';
import { parseLockFileInTurns } from './lock-file-data.js';
import { lockFileStamp } from './lock-file-stamp.js';

/**
 * Reads the lock file at `path`. A missing file is an empty lock; a file that is not a
 * version 1 lock file rejects with `invalid_lock_file`, which names the file and the fix.
 */
export async function readLockFile(path: string): Promise<LockFile> {
  return (await readLockFileIfChanged(path)).lock;
}

/** A lock file as read, with the text it was parsed from (absent: there was no file). */
export interface ReadLockFile {
  readonly lock: LockFile;
  readonly text: string | undefined;
  /** The file's identity, size and times (ns) before it was read; absent: no file. */
  readonly stamp?: string | undefined;
}

/**
 * Reads the lock file at `path` as {@link readLockFile} does, but returns `previous` itself
 * when the file is still the one `previous` was read from: the same inode, size and
 * modification and change times (to the nanosecond; a write of hintgate replaces the file,
 * a new inode), else the same text (or there is still no file). A reader that checks the
 * file often (a gateway, on every change of its tools) reads, parses and checks thousands
 * of pins only when they changed.
 */
export async function readLockFileIfChanged(
  path: string,
  previous?: ReadLockFile,
): Promise<ReadLockFile> {
  const stamp = await lockFileStamp(path);
  if (stamp !== undefined && previous?.stamp === stamp) return previous;
  const text = await readLockFileText(path);
  if (previous !== undefined && previous.text === text) {
    return previous.stamp === stamp ? previous : { ...previous, stamp };
  }
  // Checked in slices: a big lock does not hold the event loop (see parseLockFileInTurns).
  const lock = text === undefined ? emptyLockFile() : await parseLockFileInTurns(text, path);
  return { lock, text, stamp };
}
