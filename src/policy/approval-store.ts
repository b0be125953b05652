import type { BigIntStats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { HintgateError } from '../errors/index.js';
import {
  acquireFileLock,
  describeFsErrorCode,
  type FileLock,
  FileLockLostError,
  type FileLockOptions,
  FileLockTimeoutError,
  formatBytes,
  RegularFileError,
  readRegularFile,
  writeFileAtomic,
} from '../fs/index.js';
import { isPlainObject } from '../tool/index.js';

/** One persistent approval: `tool` may run on `key` without asking, in this project. */
export interface ApprovalRecord {
  /** Name of the approved tool. */
  readonly tool: string;
  /** The approval key the approval covers (see `deriveApprovalKeys`). */
  readonly key: string;
  /** When the approval was granted, as an ISO 8601 time. */
  readonly grantedAt: string;
  /** Why it was granted, e.g. who approved it and where; shown in listings. */
  readonly reason?: string;
}

/** Options of {@link createApprovalStore}. */
export interface ApprovalStoreOptions {
  /**
   * The approvals file, e.g. `<project>/.hintgate/approvals.json`. A missing file means no
   * approvals; it and its directory are created by the first `add`.
   */
  readonly path: string;
  /** Source of `grantedAt` times. Default: the system clock. */
  readonly clock?: () => Date;
  /**
   * How long `add` waits for the lock file `<path>.lock` held by another writer before it
   * gives up, in milliseconds. Default 5000.
   */
  readonly lockTimeoutMs?: number;
  /**
   * Age (by its modification time, against the system clock) after which a lock file is
   * taken as abandoned by a crashed writer and removed, in milliseconds. Default 10000.
   */
  readonly staleLockMs?: number;
}

/**
 * The persistent ("always") approvals of a project, kept in a JSON file that several
 * processes may share: writes are serialized by a lock file and replace the file atomically,
 * reads notice changes made by other processes.
 */
export interface ApprovalStore {
  /** Whether `tool` is approved for `key`. Rejects with `invalid_approvals_file` if corrupt. */
  has(tool: string, key: string): Promise<boolean>;
  /** Whether `tool` is approved for every one of `keys`; false for an empty list. */
  hasAll(tool: string, keys: readonly string[]): Promise<boolean>;
  /**
   * Approves `tool` for each of `keys` and writes the file. Pairs already approved keep
   * their first `grantedAt`. Rejects with `approvals_locked` when the lock stays held,
   * `invalid_approvals_file` when the file is corrupt (it is then left as it is), and
   * `approvals_write_failed` when the file cannot be written.
   */
  add(tool: string, keys: readonly string[], reason?: string): Promise<void>;
  /** Every approval, sorted by tool, then key. */
  list(): Promise<ApprovalRecord[]>;
  /** Absolute path of the approvals file. */
  readonly path: string;
}

/** Version of the approvals file format this module reads and writes. */
const FILE_VERSION = 1;
const DEFAULT_LOCK_TIMEOUT_MS = 5000;
const DEFAULT_STALE_LOCK_MS = 10_000;
/** Largest approvals file read: some tens of thousands of approvals. */
export const MAX_APPROVALS_FILE_BYTES = 16 * 1024 * 1024;
const EXPECTED_SHAPE =
  '{ "version": 1, "approvals": [{ "tool": "...", "key": "...", "grantedAt": "ISO time", "reason"?: "..." }] }';

interface Snapshot {
  /** Identity of the file version read (inode, size, mtime); undefined when missing. */
  readonly stamp: string | undefined;
  readonly records: readonly ApprovalRecord[];
  readonly pairs: ReadonlySet<string>;
}

const pairId = (tool: string, key: string): string => JSON.stringify([tool, key]);

const stampOf = (stats: BigIntStats): string => `${stats.ino}:${stats.size}:${stats.mtimeNs}`;

const errorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted by tool, then key; the first record of a duplicated pair wins. */
function normalize(records: readonly ApprovalRecord[]): Snapshot['records'] {
  const seen = new Set<string>();
  const unique: ApprovalRecord[] = [];
  for (const record of records) {
    const id = pairId(record.tool, record.key);
    if (seen.has(id)) continue;
    seen.add(id);
    unique.push(record);
  }
  return unique.sort((a, b) => compare(a.tool, b.tool) || compare(a.key, b.key));
}

function snapshotOf(stamp: string | undefined, records: readonly ApprovalRecord[]): Snapshot {
  const sorted = normalize(records);
  return {
    stamp,
    records: sorted,
    pairs: new Set(sorted.map((record) => pairId(record.tool, record.key))),
  };
}

function invalidFile(path: string, problem: string, cause?: unknown): HintgateError {
  return new HintgateError(
    'invalid_approvals_file',
    `The approvals file ${path} ${problem}. Fix it by hand (expected ${EXPECTED_SHAPE}) or move it away to start with no saved approvals; hintgate will not overwrite it.`,
    cause === undefined ? undefined : { cause },
  );
}

function parseApprovals(text: string, path: string): ApprovalRecord[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalidFile(path, `is not valid JSON (${messageOf(error)})`, error);
  }
  if (!isPlainObject(data)) throw invalidFile(path, 'does not hold a JSON object');
  if (data.version !== FILE_VERSION) {
    throw invalidFile(
      path,
      `has version ${JSON.stringify(data.version) ?? 'undefined'}, but this hintgate reads version ${FILE_VERSION}`,
    );
  }
  if (!Array.isArray(data.approvals)) throw invalidFile(path, 'has no "approvals" array');
  return data.approvals.map((entry: unknown, index: number): ApprovalRecord => {
    const where = `approvals[${index}]`;
    if (!isPlainObject(entry)) throw invalidFile(path, `has ${where} that is not an object`);
    const { tool, key, grantedAt, reason } = entry;
    for (const [name, value] of [
      ['tool', tool],
      ['key', key],
      ['grantedAt', grantedAt],
    ] as const) {
      if (typeof value !== 'string' || value === '') {
        throw invalidFile(path, `has ${where}.${name} that is not a non-empty string`);
      }
    }
    if (reason !== undefined && typeof reason !== 'string') {
      throw invalidFile(path, `has ${where}.reason that is not a string`);
    }
    return {
      tool: tool as string,
      key: key as string,
      grantedAt: grantedAt as string,
      ...(reason === undefined ? {} : { reason }),
    };
  });
}

function formatApprovals(records: readonly ApprovalRecord[]): string {
  const approvals = records.map(({ tool, key, grantedAt, reason }) =>
    reason === undefined ? { tool, key, grantedAt } : { tool, key, grantedAt, reason },
  );
  return `${JSON.stringify({ version: FILE_VERSION, approvals }, null, 2)}\n`;
}

function writeFailed(path: string, what: string, cause: unknown): HintgateError {
  return new HintgateError(
    'approvals_write_failed',
    `Could not ${what} ${path}: ${messageOf(cause)}. Check that the directory is writable and the disk has space.`,
    { cause },
  );
}

/**
 * Writes the approvals file atomically, provided `lock` is still held; as an
 * `approvals_write_failed` error on failure, and {@link FileLockLostError} as it is.
 */
async function replaceFile(path: string, content: string, lock: FileLock): Promise<void> {
  try {
    await writeFileAtomic(path, content, { mode: 0o600, lock });
  } catch (error) {
    if (error instanceof FileLockLostError) throw error;
    throw writeFailed(path, 'write the approvals file', error);
  }
}

function lockedOut(lockPath: string, timeoutMs: number, cause: unknown): HintgateError {
  return new HintgateError(
    'approvals_locked',
    `Timed out after ${timeoutMs} ms waiting for the lock file ${lockPath}. Another hintgate process is writing approvals; if none is running, remove ${lockPath} and retry.`,
    { cause },
  );
}

/** Takes `<path>.lock`, translating failures into the store's errors. */
async function acquireLock(
  lockPath: string,
  options: FileLockOptions,
  timeoutMs: number,
): Promise<FileLock> {
  try {
    return await acquireFileLock(lockPath, options);
  } catch (error) {
    if (error instanceof FileLockTimeoutError) throw lockedOut(lockPath, timeoutMs, error);
    throw writeFailed(lockPath, 'create the lock file', error);
  }
}

function checkMilliseconds(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new HintgateError(
      'invalid_option',
      `createApprovalStore: ${name} must be a finite number of milliseconds >= 0, got ${String(value)}.`,
    );
  }
  return value;
}

const isNonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value !== '';

/**
 * Opens the persistent approval store of a project, kept in the JSON file at `path`:
 * `{ "version": 1, "approvals": [{ "tool", "key", "grantedAt", "reason"? }] }`, sorted by
 * tool and key. Nothing is read until the first call.
 */
export function createApprovalStore(options: ApprovalStoreOptions): ApprovalStore {
  if (!isNonEmptyString(options?.path)) {
    throw new HintgateError(
      'invalid_option',
      'createApprovalStore needs { path }: the approvals file, e.g. ".hintgate/approvals.json".',
    );
  }
  const path = resolve(options.path);
  const lockPath = `${path}.lock`;
  const clock = options.clock ?? (() => new Date());
  const lock: FileLockOptions = {
    timeoutMs: checkMilliseconds('lockTimeoutMs', options.lockTimeoutMs, DEFAULT_LOCK_TIMEOUT_MS),
    staleMs: checkMilliseconds('staleLockMs', options.staleLockMs, DEFAULT_STALE_LOCK_MS),
  };
  let cache: Snapshot | undefined;
  let writes: Promise<unknown> = Promise.resolve();

  const readFresh = async (): Promise<Snapshot> => {
    let read: Awaited<ReturnType<typeof readRegularFile>>;
    try {
      read = await readRegularFile(path, { maxBytes: MAX_APPROVALS_FILE_BYTES });
    } catch (error) {
      if (error instanceof RegularFileError && error.problem === 'missing') {
        return snapshotOf(undefined, []);
      }
      const reason = error instanceof RegularFileError ? error.reason : messageOf(error);
      const limit =
        error instanceof RegularFileError && error.problem === 'too_large'
          ? `; approvals files are read up to ${formatBytes(MAX_APPROVALS_FILE_BYTES)}`
          : '';
      throw invalidFile(path, `cannot be read (${reason}${limit})`, error);
    }
    return snapshotOf(stampOf(read.stats), parseApprovals(read.text, path));
  };

  const current = async (): Promise<Snapshot> => {
    let stamp: string | undefined;
    try {
      stamp = stampOf(await stat(path, { bigint: true }));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        throw invalidFile(path, `cannot be read (${describeFsErrorCode(error)})`, error);
      }
    }
    if (cache !== undefined && cache.stamp === stamp) return cache;
    cache = await readFresh();
    return cache;
  };

  const write = async (tool: string, keys: readonly string[], reason?: string): Promise<void> => {
    try {
      await mkdir(dirname(path), { recursive: true });
    } catch (error) {
      throw writeFailed(dirname(path), 'create the directory', error);
    }
    const deadline = Date.now() + lock.timeoutMs;
    for (;;) {
      const remaining = Math.max(0, deadline - Date.now());
      const held = await acquireLock(lockPath, { ...lock, timeoutMs: remaining }, lock.timeoutMs);
      try {
        // Under the lock, read unconditionally: the stamp could miss a same-size rewrite.
        const before = await readFresh();
        cache = before;
        const missing = keys.filter((key) => !before.pairs.has(pairId(tool, key)));
        if (missing.length === 0) return;
        const grantedAt = clock().toISOString();
        const added = missing.map(
          (key): ApprovalRecord =>
            reason === undefined ? { tool, key, grantedAt } : { tool, key, grantedAt, reason },
        );
        const records = normalize([...before.records, ...added]);
        await replaceFile(path, formatApprovals(records), held);
        cache = await readFresh().catch(() => undefined);
        return;
      } catch (error) {
        // Stalled past the stale time: another writer may have written since the read, so
        // read again under a new lock rather than replace its approvals.
        if (!(error instanceof FileLockLostError)) throw error;
        if (Date.now() >= deadline) throw lockedOut(lockPath, lock.timeoutMs, error);
      } finally {
        await held.release();
      }
    }
  };

  return {
    path,
    async has(tool, key) {
      return (await current()).pairs.has(pairId(tool, key));
    },
    async hasAll(tool, keys) {
      if (keys.length === 0) return false;
      const { pairs } = await current();
      return keys.every((key) => pairs.has(pairId(tool, key)));
    },
    add(tool, keys, reason) {
      if (
        !isNonEmptyString(tool) ||
        !Array.isArray(keys as unknown) ||
        !keys.every(isNonEmptyString)
      ) {
        return Promise.reject(
          new HintgateError(
            'invalid_option',
            'ApprovalStore.add needs a tool name and an array of non-empty approval keys.',
          ),
        );
      }
      if (reason !== undefined && typeof reason !== 'string') {
        return Promise.reject(
          new HintgateError('invalid_option', 'ApprovalStore.add: reason must be a string.'),
        );
      }
      const unique = [...new Set(keys)];
      if (unique.length === 0) return Promise.resolve();
      // One writer per store at a time: the lock file then only arbitrates between stores.
      const run = writes.then(() => write(tool, unique, reason));
      writes = run.catch(() => {});
      return run;
    },
    async list() {
      return [...(await current()).records];
    },
  };
}
