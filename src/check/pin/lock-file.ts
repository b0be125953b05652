import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { canonicalJson } from '../../audit/index.js';
import { HintgateError } from '../../errors/index.js';
import {
  acquireFileLock,
  FileLockLostError,
  FileLockTimeoutError,
  formatBytes,
  RegularFileError,
  readRegularFile,
  writeFileAtomic,
} from '../../fs/index.js';
import { ownValue } from '../../tool/index.js';
import { canonicalText } from './canonical-text.js';
import {
  checkOutline,
  checkTool,
  describeProblem,
  emptyLockFile,
  type Fail,
  invalidFile,
  LOCK_FILE_VERSION,
  type LockFile,
  messageOf,
  parseLockFile,
  toolWhere,
} from './lock-file-data.js';
import { lockFileStamp } from './lock-file-stamp.js';

// The lock file's data (its types, reading and checking it) has a module of its own; this one
// formats, compares, reads and writes the file.
export {
  emptyLockFile,
  LOCK_FILE_VERSION,
  type LockFile,
  PIN_VERDICTS,
  type PinnedServer,
  type PinnedTool,
  type PinVerdict,
  parseLockFile,
} from './lock-file-data.js';

/** Default name of the lock file, written beside the configuration. */
export const LOCK_FILE_NAME = 'hintgate.lock';

/** Options of {@link updateLockFile} and {@link writeLockFile}. */
export interface LockFileWriteOptions {
  /**
   * How long to wait for `<path>.lock`, held by another writer, before giving up with
   * `lock_file_locked`, in milliseconds. Default 5000.
   */
  readonly lockTimeoutMs?: number;
  /**
   * Age after which `<path>.lock` is taken as abandoned by a crashed writer and removed, in
   * milliseconds. Default 10000.
   */
  readonly staleLockMs?: number;
  /**
   * The file as read before: its lock and {@link lockFileStamp} (as `readLockFileIfChanged`
   * gives them). When the file still has this stamp, `update` is given this lock, and the
   * file is neither read nor parsed again (a lock of thousands of pins is tens of
   * megabytes); when `update` returns it unchanged, nothing is written.
   */
  readonly known?: { readonly lock: LockFile; readonly stamp?: string | undefined };
}

const DEFAULT_LOCK_TIMEOUT_MS = 5000;
const DEFAULT_STALE_LOCK_MS = 10_000;
/** Largest lock file read: pins of some thousands of tools with their definitions' digests. */
export const MAX_LOCK_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The text of a lock file: two-space indented JSON with `version` first and every object's
 * keys sorted, ending in a newline, so the same pins always give the same bytes (and small
 * diffs under version control). Rejects a malformed `lock` with `invalid_option`.
 */
export function formatLockFile(lock: LockFile): string {
  checkOutline(lock, failToWrite);
  return [...lockFileParts(lock)].join('');
}

const failToWrite: Fail = (where, what) => {
  throw new HintgateError(
    'invalid_option',
    `formatLockFile: the lock ${describeProblem(where, what)}. Build it with pinTools.`,
  );
};

/**
 * Keys in the order `JSON.parse(canonicalJson(...))` gives them: array-index-like keys first
 * in numeric order (as every JS object orders them), then the others sorted.
 */
const jsonKeyOrder = (keys: readonly string[]): string[] =>
  Object.keys(Object.fromEntries([...keys].sort().map((key) => [key, true])));

/**
 * The text of {@link formatLockFile} for a lock whose outline is checked, tool by tool, each
 * tool checked as it comes (`invalid_option`): a file of thousands of pins is written
 * without its whole text, a checked copy or a canonical copy of it in memory.
 */
function* lockFileParts(lock: LockFile): Generator<string> {
  yield `{\n  "version": ${LOCK_FILE_VERSION},\n  "servers": {`;
  const servers = jsonKeyOrder(Object.keys(lock.servers));
  for (const [s, server] of servers.entries()) {
    yield `${s === 0 ? '' : ','}\n    ${JSON.stringify(server)}: {\n      "tools": {`;
    const tools = ownValue(lock.servers, server)?.tools ?? {};
    const names = jsonKeyOrder(Object.keys(tools));
    for (const [t, name] of names.entries()) {
      const pinned = checkTool(ownValue(tools, name), toolWhere(server, name), failToWrite);
      const body = canonicalText(pinned, { indent: '        ' });
      yield `${t === 0 ? '' : ','}\n        ${JSON.stringify(name)}: ${body}`;
    }
    yield names.length === 0 ? '}\n    }' : '\n      }\n    }';
  }
  yield servers.length === 0 ? '}\n}\n' : '\n  }\n}\n';
}

/**
 * Whether two locks hold the same pins (as their files would say), compared tool by tool
 * without the canonical text of either whole lock.
 */
export function sameLockFile(a: LockFile, b: LockFile): boolean {
  if (a === b) return true;
  const servers = Object.keys(a.servers);
  if (a.version !== b.version || servers.length !== Object.keys(b.servers).length) return false;
  return servers.every((server) => {
    const left = ownValue(a.servers, server)?.tools ?? {};
    const right = ownValue(b.servers, server)?.tools;
    if (right === undefined) return false;
    const names = Object.keys(left);
    return (
      names.length === Object.keys(right).length &&
      names.every((name) => {
        const other = ownValue(right, name);
        const mine = ownValue(left, name);
        return (
          other !== undefined && (mine === other || canonicalJson(mine) === canonicalJson(other))
        );
      })
    );
  });
}

/** Whether `parts` joined are exactly `text`, without joining them. */
function spells(parts: Iterable<string>, text: string): boolean {
  let at = 0;
  for (const part of parts) {
    if (!text.startsWith(part, at)) return false;
    at += part.length;
  }
  return at === text.length;
}

/**
 * The text of the lock file at `path`, or undefined when it does not exist. Anything but a regular file of
 * at most {@link MAX_LOCK_FILE_BYTES} is refused without being read whole (or at all).
 */
export async function readLockFileText(path: string): Promise<string | undefined> {
  try {
    return (await readRegularFile(path, { maxBytes: MAX_LOCK_FILE_BYTES })).text;
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    if (error.problem === 'missing') return undefined;
    const limit =
      error.problem === 'too_large'
        ? `; lock files are read up to ${formatBytes(MAX_LOCK_FILE_BYTES)}`
        : '';
    throw invalidFile(path, `cannot be read (${error.reason}${limit})`, error);
  }
}

function writeFailed(path: string, what: string, cause: unknown): HintgateError {
  return new HintgateError(
    'lock_file_write_failed',
    `Could not ${what} ${path}: ${messageOf(cause)}. Check that the directory is writable and the disk has space.`,
    { cause },
  );
}

function milliseconds(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new HintgateError(
      'invalid_option',
      `Lock file options: ${name} must be a finite number of milliseconds >= 0, got ${String(value)}.`,
    );
  }
  return value;
}

/**
 * Read-modify-write of the lock file at `path`, safe against concurrent writers in this and
 * other processes: takes `<path>.lock`, reads the file afresh, passes it to `update`, and
 * replaces the file atomically with the result (nothing is written when the text would not
 * change). A corrupt file is never overwritten: it rejects with `invalid_lock_file`. Other
 * failures: `lock_file_locked` (another writer held the lock too long),
 * `lock_file_write_failed`, `invalid_option` (bad options or `update` result). Resolves to
 * the lock as written. The file's directory is created if missing. A writer that stalls
 * past `staleLockMs` while holding the lock loses it; it then writes nothing, takes the lock
 * again and calls `update` again on what is there now, so no other writer's pins are lost.
 */
export async function updateLockFile(
  path: string,
  update: (current: LockFile) => LockFile,
  options: LockFileWriteOptions = {},
): Promise<LockFile> {
  const file = resolve(path);
  const lockOptions = {
    timeoutMs: milliseconds('lockTimeoutMs', options.lockTimeoutMs, DEFAULT_LOCK_TIMEOUT_MS),
    staleMs: milliseconds('staleLockMs', options.staleLockMs, DEFAULT_STALE_LOCK_MS),
  };
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw writeFailed(dirname(file), 'create the directory', error);
  }
  const lockPath = `${file}.lock`;
  const lockedOut = (cause: unknown): HintgateError =>
    new HintgateError(
      'lock_file_locked',
      `Timed out after ${lockOptions.timeoutMs} ms waiting for ${lockPath}. Another hintgate process is writing the lock file; if none is running, remove ${lockPath} and retry.`,
      { cause },
    );
  const deadline = Date.now() + lockOptions.timeoutMs;
  for (;;) {
    let held: Awaited<ReturnType<typeof acquireFileLock>>;
    try {
      held = await acquireFileLock(lockPath, {
        ...lockOptions,
        timeoutMs: Math.max(0, deadline - Date.now()),
      });
    } catch (error) {
      if (error instanceof FileLockTimeoutError) throw lockedOut(error);
      throw writeFailed(lockPath, 'create', error);
    }
    try {
      const { known } = options;
      const same = known?.stamp !== undefined && (await lockFileStamp(file)) === known.stamp;
      const before = same ? undefined : await readLockFileText(file);
      const current =
        same && known !== undefined
          ? known.lock
          : before === undefined
            ? emptyLockFile()
            : parseLockFile(before, file);
      const next = update(current);
      if (same && next === current) return next;
      // The lock as read was checked when it was parsed, and is what the file says.
      if (next === current && before !== undefined) return next;
      checkOutline(next, failToWrite);
      if (same || before === undefined || !spells(lockFileParts(next), before)) {
        try {
          await writeFileAtomic(file, lockFileParts(next), { mode: 0o644, lock: held });
        } catch (error) {
          if (error instanceof FileLockLostError || error instanceof HintgateError) throw error;
          throw writeFailed(file, 'write the lock file', error);
        }
      }
      return next;
    } catch (error) {
      // Stalled past the stale time: another writer may have written since the read, so
      // read again under a new lock rather than replace its pins.
      if (!(error instanceof FileLockLostError)) throw error;
      if (Date.now() >= deadline) throw lockedOut(error);
    } finally {
      await held.release();
    }
  }
}

/**
 * Replaces the lock file at `path` with `lock`: atomically, serialized with other writers
 * through `<path>.lock`, and never over a corrupt file (`invalid_lock_file`). To change part
 * of the pins without losing a concurrent writer's, use {@link updateLockFile}.
 */
export async function writeLockFile(
  path: string,
  lock: LockFile,
  options: LockFileWriteOptions = {},
): Promise<void> {
  await updateLockFile(path, () => lock, options);
}
