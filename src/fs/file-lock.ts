import { randomBytes } from 'node:crypto';
import { type FileHandle, link, open, rename, stat, unlink } from 'node:fs/promises';
import { readRegularFile } from './read-regular-file.js';

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** How long to wait for a lock held by someone else before giving up, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * Age (by the lock file's modification time, against the system clock) after which a lock
   * is taken as abandoned by a crashed holder and removed, in milliseconds. A live holder
   * keeps its lock fresh: it touches the lock file every third of this time.
   */
  readonly staleMs: number;
}

/** A held lock file. */
export interface FileLock {
  /** Path of the lock file. */
  readonly path: string;
  /**
   * Whether the lock file is still this holder's. It stops being so when the holder stalled
   * (a paused process, a frozen machine) for longer than `staleMs`, so that another process
   * broke the lock as abandoned. Check it right before the write the lock protects, and do
   * not write when it is false: what was read under the lock may be out of date.
   */
  isHeld(): Promise<boolean>;
  /** Removes the lock file, unless it is no longer ours (broken as stale and taken over). */
  release(): Promise<void>;
}

/**
 * A write was about to happen under a lock that is no longer held (see
 * {@link FileLock.isHeld}); nothing was written. Take the lock again, read afresh and retry.
 */
export class FileLockLostError extends Error {
  /** Path of the lock file. */
  readonly lockPath: string;

  constructor(lockPath: string) {
    super(
      `The lock file ${lockPath} was broken as stale and taken over by another writer while this one held it; nothing was written.`,
    );
    this.name = 'FileLockLostError';
    this.lockPath = lockPath;
  }
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

/** Largest lock file read back: it holds a pid, a token and a time. */
const MAX_LOCK_FILE_BYTES = 64 * 1024;

/** Whether the lock file at `lockPath` holds `token`; false when it is gone or unreadable. */
async function holdsToken(lockPath: string, token: string): Promise<boolean> {
  try {
    const { text } = await readRegularFile(lockPath, { maxBytes: MAX_LOCK_FILE_BYTES });
    const held: unknown = JSON.parse(text);
    return typeof held === 'object' && held !== null && Reflect.get(held, 'token') === token;
  } catch {
    return false;
  }
}

/**
 * The lock just created, open as `handle`: it touches the file through the handle every
 * third of `staleMs`, so that a live holder's lock never looks abandoned, and only its own
 * file is touched even after the lock was broken and taken by another.
 */
function heldLock(lockPath: string, token: string, handle: FileHandle, staleMs: number): FileLock {
  let released = false;
  const heartbeat =
    staleMs >= 3
      ? setInterval(
          () => {
            const now = new Date();
            handle.utimes(now, now).catch(() => {});
          },
          Math.floor(staleMs / 3),
        )
      : undefined;
  heartbeat?.unref();
  return {
    path: lockPath,
    isHeld: async () => !released && (await holdsToken(lockPath, token)),
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      await handle.close().catch(() => {});
      if (await holdsToken(lockPath, token)) await unlink(lockPath).catch(() => {});
    },
  };
}

/**
 * Takes the inter-process lock file `lockPath` (created exclusively, holding the pid, a
 * random token and the time), waiting with jittered exponential backoff while another
 * holder has it and breaking a lock older than `staleMs`. The holder keeps the file open
 * and fresh until it releases it; a holder that stalls longer than `staleMs` loses it, which
 * {@link FileLock.isHeld} tells. Rejects with
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
      } catch (error) {
        await handle.close().catch(() => {});
        await unlink(lockPath).catch(() => {});
        throw error;
      }
      return heldLock(lockPath, token, handle, options.staleMs);
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
