import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** How long to wait for a lock held by someone else before giving up, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * Age (by the lock file's modification time, against the system clock) after which a lock
   * is taken as abandoned by a crashed holder and removed, in milliseconds.
   */
  readonly staleMs: number;
}

/** A held lock file. */
export interface FileLock {
  /** Path of the lock file. */
  readonly path: string;
  /** Removes the lock file, unless it is no longer ours (broken as stale and taken over). */
  release(): Promise<void>;
}

/** {@link acquireFileLock} waited `timeoutMs` and the lock stayed held. */
export class FileLockTimeoutError extends Error {
  /** Path of the lock file. */
  readonly lockPath: string;
  /** How long it waited, in milliseconds. */
  readonly timeoutMs: number;

  constructor(lockPath: string, timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms waiting for the lock file ${lockPath}.`);
    this.name = 'FileLockTimeoutError';
    this.lockPath = lockPath;
    this.timeoutMs = timeoutMs;
  }
}

const FIRST_RETRY_MS = 5;
const MAX_RETRY_MS = 100;

const errorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;

const randomSuffix = (): string => randomBytes(6).toString('hex');

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/**
 * Removes the lock file if it is older than `staleMs`. It is first renamed aside, so that of
 * two processes breaking it at once only one succeeds, and checked again, so that a fresh
 * lock taken meanwhile is put back. Returns whether the lock may be free now.
 */
async function breakStaleLock(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const stats = await stat(lockPath);
    if (Date.now() - stats.mtimeMs <= staleMs) return false;
    const aside = `${lockPath}.${process.pid}.${randomSuffix()}.stale`;
    await rename(lockPath, aside);
    const moved = await stat(aside);
    if (Date.now() - moved.mtimeMs <= staleMs) {
      // Exclusive: fails if yet another writer has taken the lock in the meantime.
      await link(aside, lockPath).catch(() => {});
      await unlink(aside).catch(() => {});
      return false;
    }
    await unlink(aside).catch(() => {});
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return true;
    throw error;
  }
}

async function releaseLock(lockPath: string, token: string): Promise<void> {
  try {
    const held: unknown = JSON.parse(await readFile(lockPath, 'utf8'));
    if (typeof held === 'object' && held !== null && Reflect.get(held, 'token') === token) {
      await unlink(lockPath);
    }
  } catch {}
}

/**
 * Takes the inter-process lock file `lockPath` (created exclusively, holding the pid, a
 * random token and the time), waiting with jittered exponential backoff while another
 * holder has it and breaking a lock older than `staleMs`. Rejects with
 * {@link FileLockTimeoutError} after `timeoutMs`, or with the fs error when the lock file
 * cannot be created (its directory must exist).
 */
export async function acquireFileLock(
  lockPath: string,
  options: FileLockOptions,
): Promise<FileLock> {
  const token = randomSuffix();
  const body = `${JSON.stringify({ pid: process.pid, token, time: new Date().toISOString() })}\n`;
  const deadline = Date.now() + options.timeoutMs;
  let delay = FIRST_RETRY_MS;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(body, 'utf8');
      } finally {
        await handle.close();
      }
      return { path: lockPath, release: () => releaseLock(lockPath, token) };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    if (await breakStaleLock(lockPath, options.staleMs)) continue;
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new FileLockTimeoutError(lockPath, options.timeoutMs);
    await sleep(Math.min(remaining, delay * (0.5 + Math.random())));
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
}
