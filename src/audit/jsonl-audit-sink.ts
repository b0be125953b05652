import { closeSync, existsSync, fdatasync, fsync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { HintgateError } from '../errors/hintgate-error.js';
import type { AuditEvent, AuditSink, AuditWriteOptions } from './audit-event.js';

/**
 * The file operations of {@link createJsonlAuditSink}: the defaults are Node's, tests give
 * their own. Appends are synchronous (a short line into the page cache), syncs asynchronous.
 */
export interface AuditFileSystem {
  /** Creates a directory and its missing parents. */
  readonly mkdir: (directory: string) => void;
  /** True when `path` exists. */
  readonly exists: (path: string) => boolean;
  /** Opens `path` for appending, creating it with `mode`; returns the descriptor. */
  readonly open: (path: string, mode: number) => number;
  /** Writes bytes of `data` from `offset` at the end of the file; returns how many it wrote. */
  readonly write: (fd: number, data: Uint8Array, offset: number) => number;
  /** Flushes the file's data to the disk (`fdatasync`). */
  readonly datasync: (fd: number) => Promise<void>;
  /** Flushes a directory's entries to the disk, so a file created in it survives a crash. */
  readonly syncDirectory: (directory: string) => Promise<void>;
  readonly close: (fd: number) => void;
}

const callback =
  (operation: (fd: number, done: (error: Error | null) => void) => void) =>
  (fd: number): Promise<void> =>
    new Promise((resolve, reject) => {
      operation(fd, (error) => (error === null ? resolve() : reject(error)));
    });

/** Node's file operations. */
export const nodeAuditFileSystem: AuditFileSystem = {
  mkdir: (directory) => {
    mkdirSync(directory, { recursive: true });
  },
  exists: existsSync,
  open: (path, mode) => openSync(path, 'a', mode),
  write: (fd, data, offset) => writeSync(fd, data, offset),
  datasync: callback(fdatasync),
  async syncDirectory(directory) {
    let fd: number;
    try {
      fd = openSync(directory, 'r');
    } catch {
      // Where a directory cannot be opened (Windows), its entries cannot be synced either.
      return;
    }
    try {
      await callback(fsync)(fd);
    } catch (error) {
      // Some file systems do not sync directories.
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
    } finally {
      closeSync(fd);
    }
  },
  close: closeSync,
};

/** Options of {@link createJsonlAuditSink}. */
export interface JsonlAuditSinkOptions {
  /** File to append to; created (with its directory) if missing, mode 0600. */
  readonly path: string;
  /**
   * When lines are synced to the disk (`fdatasync`). Default `true`: before the sink
   * reports them written, so an event reported as written survives a crash of the machine.
   * `'batched'`: every line is appended (one synchronous `write(2)`) before `write` returns
   * and reported written then, so it survives a crash or kill of the process; it is synced in
   * the background at most `maxSyncDelayMs` later, together with the lines written meanwhile,
   * so a crash of the machine can lose the lines of that last moment. `'auto'`: a line
   * written with `readOnly` (an event of a call that changes nothing) as with `'batched'`,
   * except that one also written with `deferSync` (such a call's `call.started`) is appended
   * together with the next line written, normally the call's last event, or at most
   * `maxSyncDelayMs` later, so a read-only call costs one write; every other line as with
   * `true`. `false`: appended the same way and never synced.
   */
  readonly sync?: boolean | 'batched' | 'auto';
  /**
   * Longest time, in milliseconds, that a line waits for a sync when no other write asks for
   * one sooner: a line written with `deferSync`, with `sync: 'batched'` any line, with
   * `sync: 'auto'` a line written with `readOnly`. Default 50.
   */
  readonly maxSyncDelayMs?: number;
  /**
   * Told when a sync that no write waits for fails (`sync: 'batched'`, or `'auto'` with lines
   * written with `readOnly`), once per failed sync. Default: ignore.
   */
  readonly onSyncError?: (error: HintgateError) => void;
  /** File operations; default {@link nodeAuditFileSystem}. For tests. */
  readonly fileSystem?: AuditFileSystem;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  /** Resolved once its line is in the file, its sync left to the background. */
  readonly onAppend?: boolean;
}

/** Default of {@link JsonlAuditSinkOptions.maxSyncDelayMs}. */
export const DEFAULT_MAX_SYNC_DELAY_MS = 50;

/**
 * A durable audit sink: appends one JSON line per event.
 *
 * A line written with `deferSync` is appended before `write` returns (one synchronous
 * write), so it is in the file, and survives a crash of this process, from then on. Other
 * lines are appended once the current turn of the event loop is over (`setImmediate`),
 * together with the lines written in the same turn, in one write, right before the sync
 * they wait for; the file keeps the order in which events were written. The promise `write`
 * returns resolves once the line is synced to the disk. Lines written while a sync runs
 * share the next one (group commit). A line written with `deferSync` waits for the next sync
 * another write asks for, or at most `maxSyncDelayMs`. With `sync: 'batched'` every line is
 * appended before `write` returns, reported written then, and synced in the background at
 * most `maxSyncDelayMs` later; `flush` and `close` sync what is left. With `sync: 'auto'` a
 * line written with `readOnly` is handled as with `'batched'` (one also written with
 * `deferSync` is appended with the next line, or at most `maxSyncDelayMs` later) and every
 * other line as with `true`, in one file whose order stays that of the writes. With `sync: false` every line is
 * appended before `write` returns and never synced.
 */
export function createJsonlAuditSink(options: JsonlAuditSinkOptions): AuditSink {
  if (typeof options?.path !== 'string' || options.path === '') {
    throw new HintgateError(
      'invalid_option',
      'createJsonlAuditSink needs { path }: the file to append audit events to.',
    );
  }
  const maxDelay = options.maxSyncDelayMs ?? DEFAULT_MAX_SYNC_DELAY_MS;
  if (typeof maxDelay !== 'number' || !(maxDelay >= 0) || !Number.isFinite(maxDelay)) {
    throw new HintgateError(
      'invalid_option',
      `createJsonlAuditSink: maxSyncDelayMs must be a number of milliseconds, 0 or more, not ${String(maxDelay)}.`,
    );
  }
  const { path } = options;
  const fs = options.fileSystem ?? nodeAuditFileSystem;
  const sync = options.sync ?? true;
  if (sync !== true && sync !== false && sync !== 'batched' && sync !== 'auto') {
    throw new HintgateError(
      'invalid_option',
      `createJsonlAuditSink: sync must be true, false, 'batched' or 'auto', not ${JSON.stringify(sync)}.`,
    );
  }
  const { onSyncError } = options;
  const failure = (what: string, error: unknown): HintgateError =>
    new HintgateError(
      'audit_write_failed',
      `Could not ${what} the audit log ${path}: ${(error as Error)?.message ?? String(error)}. Check that its directory is writable and the disk has space.`,
      { cause: error },
    );

  let fd: number | undefined;
  let openFailure: HintgateError | undefined;
  /** The directory entry of a file created here still needs a sync. */
  let directoryUnsynced = false;
  try {
    fs.mkdir(dirname(path));
    directoryUnsynced = !fs.exists(path);
    fd = fs.open(path, 0o600);
  } catch (error) {
    openFailure = failure('open', error);
  }

  /** Writes whose lines are in the file but not yet synced. */
  let unsynced: Waiter[] = [];
  /** Lines not in the file yet, in order, and their writes: appended together before a sync. */
  let buffered: string[] = [];
  let bufferedWaiters: Waiter[] = [];
  /** Some write in `unsynced` or `buffered` wants its sync now, not later. */
  let urgent = false;
  let syncing: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  /** The last background sync failure reported, so that each is told once. */
  let reportedFailure: unknown;
  /** Stands for a line in `unsynced` that nobody waits for (`'batched'`, `'auto'` read-only). */
  const background: Waiter = {
    resolve: () => {},
    reject: (error) => {
      if (error === reportedFailure) return;
      reportedFailure = error;
      try {
        onSyncError?.(error as HintgateError);
      } catch {
        // Reporting must not break the sink.
      }
    },
  };

  const append = (file: number, text: string): void => {
    const data = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < data.length) offset += fs.write(file, data, offset);
  };

  /**
   * Appends the buffered lines and then `line`, if given, in one write, so the file keeps the
   * order in which events were written. The buffered writes then wait for a sync; if the
   * append fails, they are rejected and so is the write of `line` (the error is thrown).
   */
  const appendInOrder = (file: number, line?: string): void => {
    if (buffered.length === 0 && line === undefined) return;
    const waiters = bufferedWaiters;
    const text = buffered.join('') + (line ?? '');
    buffered = [];
    bufferedWaiters = [];
    try {
      append(file, text);
    } catch (error) {
      const appended = failure('append to', error);
      for (const waiter of waiters) waiter.reject(appended);
      throw appended;
    }
    for (const waiter of waiters) {
      if (waiter.onAppend === true) {
        waiter.resolve();
        unsynced.push(background);
      } else unsynced.push(waiter);
    }
  };

  const syncLoop = async (file: number): Promise<void> => {
    for (;;) {
      try {
        appendInOrder(file);
      } catch {
        // Its writes were rejected; the others still get their sync.
      }
      if (unsynced.length === 0 || !urgent) break;
      const batch = unsynced;
      unsynced = [];
      urgent = false;
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      try {
        await fs.datasync(file);
        if (directoryUnsynced) {
          await fs.syncDirectory(dirname(path));
          directoryUnsynced = false;
        }
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        const synced = failure('sync', error);
        for (const waiter of batch) waiter.reject(synced);
      }
    }
  };

  const startSync = (): void => {
    if (syncing !== undefined || fd === undefined) return;
    syncing = syncLoop(fd).then(() => {
      syncing = undefined;
      // Writes made since the loop ended found it still running and are picked up here.
      if (urgent && (unsynced.length > 0 || buffered.length > 0)) requestSync();
      else if (unsynced.length > 0 || buffered.length > 0) armTimer();
    });
  };

  /** A sync is due once this turn of the event loop has written what it will write. */
  let syncSoon: ReturnType<typeof setImmediate> | undefined;
  const requestSync = (): void => {
    urgent = true;
    if (syncing !== undefined || syncSoon !== undefined) return;
    // Calls that end together (responses read in one chunk, a batch's results) then share
    // one append and one sync instead of the first taking them alone and the rest the next.
    syncSoon = setImmediate(() => {
      syncSoon = undefined;
      startSync();
    });
  };

  function armTimer(): void {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      requestSync();
    }, maxDelay);
    // Deferred lines are in the file already; they must not keep the process alive.
    timer.unref?.();
  }

  const settleAll = async (): Promise<void> => {
    while (unsynced.length > 0 || buffered.length > 0 || syncing !== undefined) {
      if (syncSoon !== undefined) {
        clearImmediate(syncSoon);
        syncSoon = undefined;
      }
      if (unsynced.length > 0 || buffered.length > 0) {
        urgent = true;
        startSync();
      }
      await syncing;
    }
  };

  return {
    holdsReadOnlyStarts: sync === 'auto',
    write(event: AuditEvent, writeOptions?: AuditWriteOptions): Promise<void> {
      if (closed) {
        return Promise.reject(
          new HintgateError('audit_write_failed', `The audit log ${path} is closed.`),
        );
      }
      if (fd === undefined) return Promise.reject(openFailure);
      const line = `${JSON.stringify(event)}\n`;
      if (!sync) {
        try {
          append(fd, line);
        } catch (error) {
          return Promise.reject(failure('append to', error));
        }
        return Promise.resolve();
      }
      if (sync === 'auto' && writeOptions?.readOnly === true && writeOptions.deferSync === true) {
        // The first event of a call that changes nothing (call.started) waits for the next
        // append, normally its call's last event, so that such a call costs one write; it is
        // in the file before that event is reported written, or at most maxSyncDelayMs later.
        return new Promise<void>((resolve, reject) => {
          buffered.push(line);
          bufferedWaiters.push({ resolve, reject, onAppend: true });
          if (syncing === undefined) armTimer();
        });
      }
      if (sync === 'batched' || (sync === 'auto' && writeOptions?.readOnly === true)) {
        // Appending flushes the lines buffered before it first, so a read-only line never
        // overtakes another kind written earlier.
        try {
          appendInOrder(fd, line);
        } catch (error) {
          return Promise.reject(error);
        }
        unsynced.push(background);
        if (syncing === undefined) armTimer();
        return Promise.resolve();
      }
      if (writeOptions?.deferSync !== true) {
        // Its line is appended with the sync it waits for, together with the other lines
        // of this turn.
        return new Promise<void>((resolve, reject) => {
          buffered.push(line);
          bufferedWaiters.push({ resolve, reject });
          requestSync();
        });
      }
      // A deferred line is in the file when write returns (the runtime writes call.started
      // this way, before the tool runs).
      try {
        appendInOrder(fd, line);
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise<void>((resolve, reject) => {
        unsynced.push({ resolve, reject });
        if (syncing === undefined) armTimer();
      });
    },
    flush: settleAll,
    async close() {
      closed = true;
      await settleAll();
      if (timer !== undefined) clearTimeout(timer);
      if (fd !== undefined) {
        const file = fd;
        fd = undefined;
        fs.close(file);
      }
    },
  };
}
