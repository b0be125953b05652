import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` to `absolute` atomically: into a temporary file in the same directory,
 * flushed to disk, then renamed over the target, so readers see the old or the new content,
 * never a part. An existing file keeps its permission bits.
 */
export async function writeFileAtomic(absolute: string, data: string | Uint8Array): Promise<void> {
  let mode: number | undefined;
  try {
    mode = (await stat(absolute)).mode & 0o7777;
  } catch {
    // A new file: default permissions (minus the umask).
  }
  const temp = join(
    dirname(absolute),
    `.${basename(absolute)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temp, 'wx');
  try {
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, absolute);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
