import { stat } from 'node:fs/promises';

/**
 * The identity of the file at `path` as it is now: its device, inode, size, modification and
 * change times, to the nanosecond (a write of hintgate replaces the file, a new inode).
 * Undefined when there is no file (or it cannot be looked at).
 */
export async function lockFileStamp(path: string): Promise<string | undefined> {
  try {
    const found = await stat(path, { bigint: true });
    return `${found.dev}:${found.ino}:${found.size}:${found.mtimeNs}:${found.ctimeNs}`;
  } catch {
    // Missing or unreadable: a read says which, in words.
    return undefined;
  }
}
