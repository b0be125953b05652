import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, FileLockLostError, FileLockTimeoutError } from './file-lock.js';
import { writeFileAtomic } from './write-file-atomic.js';

let dir: string;
let lockPath: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-file-lock-'));
  lockPath = join(dir, 'state.json.lock');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('acquireFileLock', () => {
  it('lets one holder in at a time, in the order the lock frees', async () => {
    const options = { timeoutMs: 5000, staleMs: 10_000 };
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const lock = await acquireFileLock(lockPath, options);
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inside -= 1;
        await lock.release();
      }),
    );
    expect(most).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('times out on a fresh lock held by someone else and leaves it in place', async () => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, token: 'other' }));
    const failure = acquireFileLock(lockPath, { timeoutMs: 100, staleMs: 10_000 });
    await expect(failure).rejects.toBeInstanceOf(FileLockTimeoutError);
    await expect(failure).rejects.toMatchObject({ lockPath, timeoutMs: 100 });
    expect(await readdir(dir)).toEqual(['state.json.lock']);
  });

  it('breaks a stale lock, and release leaves a lock taken over by another holder alone', async () => {
    await writeFile(lockPath, JSON.stringify({ pid: 999_999, token: 'dead' }));
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath, old, old);
    const lock = await acquireFileLock(lockPath, { timeoutMs: 1000, staleMs: 10_000 });
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, token: 'someone else' }));
    await lock.release();
    expect(await readdir(dir)).toEqual(['state.json.lock']);
  });

  it('tells a holder whose stale lock was broken and taken over that it no longer holds it', async () => {
    const lock = await acquireFileLock(lockPath, { timeoutMs: 1000, staleMs: 10_000 });
    expect(await lock.isHeld()).toBe(true);
    // As if the holder had been frozen past staleMs: its lock file looks old.
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath, old, old);
    const other = await acquireFileLock(lockPath, { timeoutMs: 1000, staleMs: 10_000 });
    expect(await lock.isHeld()).toBe(false);
    expect(await other.isHeld()).toBe(true);
    await lock.release();
    expect(await other.isHeld()).toBe(true);
    await other.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('keeps the lock of a live holder fresh past staleMs, so nobody breaks it', async () => {
    const lock = await acquireFileLock(lockPath, { timeoutMs: 1000, staleMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 900));
    await expect(
      acquireFileLock(lockPath, { timeoutMs: 300, staleMs: 300 }),
    ).rejects.toBeInstanceOf(FileLockTimeoutError);
    expect(await lock.isHeld()).toBe(true);
    await lock.release();
  });

  it('writes nothing under a lock that was lost, and says so with FileLockLostError', async () => {
    const target = join(dir, 'state.json');
    await writeFile(target, 'theirs');
    const lock = await acquireFileLock(lockPath, { timeoutMs: 1000, staleMs: 10_000 });
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, token: 'someone else' }));
    const write = writeFileAtomic(target, 'stale snapshot', { lock });
    await expect(write).rejects.toBeInstanceOf(FileLockLostError);
    await expect(write).rejects.toMatchObject({ lockPath });
    expect(await readFile(target, 'utf8')).toBe('theirs');
    await lock.release();
    expect((await readdir(dir)).sort()).toEqual(['state.json', 'state.json.lock']);
  });

  it('rejects with the fs error when the directory does not exist', async () => {
    const missing = join(dir, 'nope', 'x.lock');
    await expect(acquireFileLock(missing, { timeoutMs: 100, staleMs: 100 })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
