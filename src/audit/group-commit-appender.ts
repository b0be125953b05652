import { dirname } from 'node:path';
import { HintgateError } from '../errors/index.js';
import type { AuditFileSystem } from './audit-file-system.js';
import type { ResolvedAuditRotation } from './audit-rotate-options.js';
import { shiftAuditFiles } from './shift-audit-files.js';

/**
 * How {@link GroupCommitAppender.append} handles one line:
 *
 * - `synced`: appended once the current turn of the event loop is over, with the other lines
 *   of that turn in one write, right before the sync it asks for; resolves once synced.
 * - `synced-later`: appended before `append` returns; resolves once synced, by the next sync
 *   another line asks for, or at most `maxSyncDelayMs` later.
 * - `appended`: appended before `append` returns and resolved then; synced in the background
 *   at most `maxSyncDelayMs` later.
 * - `with-next`: appended together with the next line appended, or by itself at most
 *   `maxSyncDelayMs` later; resolves once appended; synced in the background.
 * - `unsynced`: appended before `append` returns and resolved then; never synced.
 */
export type AppendMode = 'synced' | 'synced-later' | 'appended' | 'with-next' | 'unsynced';

/** Options of {@link GroupCommitAppender}. */
export interface GroupCommitAppenderOptions {
  /** File to append to; created (with its directory) if missing, mode 0600. */
  readonly path: string;
  /** Longest time, in milliseconds, a line waits for a sync that nothing asks for sooner. */
  readonly maxSyncDelayMs: number;
  /** File operations. */
  readonly fileSystem: AuditFileSystem;
  /** Told once per failed sync that no `append` waits for. */
  readonly onSyncError?: ((error: HintgateError) => void) | undefined;
  /** When to start a new file; none when absent. */
  readonly rotation?: ResolvedAuditRotation | undefined;
  /** Told when a rotation fails (appends go on to the file at hand). */
  readonly onRotateError?: ((error: HintgateError) => void) | undefined;
  /** Current time in ms since the epoch, for daily rotation. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  /** Resolved once its line is in the file, its sync left to the background. */
  readonly onAppend?: boolean;
}

const DAY_MS = 86_400_000;

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Appends lines to one file, keeping the order in which they were given, and syncs them with
 * group commit: the lines appended while a sync runs share the next one, and a line that may
 * wait for its sync waits for the next one another line asks for, or at most
 * `maxSyncDelayMs`. Each line's {@link AppendMode} says what it waits for. With a rotation,
 * the file is renamed away and a new one started between two whole lines; the old file is
 * synced before the lines in it are reported synced, and so is the directory, whose entries
 * changed.
 */
export class GroupCommitAppender {
  readonly #path: string;
  readonly #fs: AuditFileSystem;
  readonly #maxDelay: number;
  readonly #onSyncError: ((error: HintgateError) => void) | undefined;
  readonly #rotation: ResolvedAuditRotation | undefined;
  readonly #onRotateError: ((error: HintgateError) => void) | undefined;
  readonly #now: () => number;
  #fd: number | undefined;
  #openFailure: HintgateError | undefined;
  /** The directory's entries changed (a file created, or rotated) and need a sync. */
  #directoryUnsynced = false;
  /** Bytes in the current file, as far as this appender knows. */
  #size = 0;
  /** UTC day (days since the epoch) the current file belongs to. */
  #day = 0;
  /** Files rotated away whose lines may still need a sync; closed after it. */
  #retired: number[] = [];
  /** Appends whose lines are in a file but not yet synced. */
  #unsynced: Waiter[] = [];
  /** Lines not in the file yet, in order, and their appends: written together before a sync. */
  #buffered: string[] = [];
  #bufferedWaiters: Waiter[] = [];
  /** Some append in `#unsynced` or `#buffered` wants its sync now, not later. */
  #urgent = false;
  #syncing: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A sync is due once this turn of the event loop has appended what it will. */
  #syncSoon: ReturnType<typeof setImmediate> | undefined;
  #closed = false;
  /** The last background sync failure reported, so that each is told once. */
  #reportedFailure: unknown;
  /** Stands for a line in `#unsynced` that nobody waits for. */
  readonly #background: Waiter;

  constructor(options: GroupCommitAppenderOptions) {
    this.#path = options.path;
    this.#fs = options.fileSystem;
    this.#maxDelay = options.maxSyncDelayMs;
    this.#onSyncError = options.onSyncError;
    this.#rotation = options.rotation;
    this.#onRotateError = options.onRotateError;
    this.#now = options.now ?? Date.now;
    this.#background = {
      resolve: () => {},
      reject: (error) => {
        if (error === this.#reportedFailure) return;
        this.#reportedFailure = error;
        try {
          this.#onSyncError?.(error as HintgateError);
        } catch {
          // Reporting must not break the appender.
        }
      },
    };
    const fs = this.#fs;
    try {
      fs.mkdir(dirname(this.#path));
      this.#directoryUnsynced = !fs.exists(this.#path);
      this.#fd = fs.open(this.#path, 0o600);
      this.#day = Math.floor(this.#now() / DAY_MS);
      if (this.#rotation !== undefined) {
        const { size, mtimeMs } = fs.stat(this.#fd);
        this.#size = size;
        if (size > 0) this.#day = Math.floor(mtimeMs / DAY_MS);
      }
    } catch (error) {
      this.#openFailure = this.#failure('open', error);
    }
  }

  /** Appends `line` (one or more whole lines, each ending in `\n`) as `mode` says. */
  append(line: string, mode: AppendMode): Promise<void> {
    if (this.#closed) {
      return Promise.reject(
        new HintgateError('audit_write_failed', `The audit log ${this.#path} is closed.`),
      );
    }
    if (this.#fd === undefined) return Promise.reject(this.#openFailure);
    switch (mode) {
      case 'synced':
        // Appended with the sync it waits for, together with the other lines of this turn.
        return new Promise<void>((resolve, reject) => {
          this.#buffered.push(line);
          this.#bufferedWaiters.push({ resolve, reject });
          this.#requestSync();
        });
      case 'with-next':
        return new Promise<void>((resolve, reject) => {
          this.#buffered.push(line);
          this.#bufferedWaiters.push({ resolve, reject, onAppend: true });
          if (this.#syncing === undefined) this.#armTimer();
        });
      default:
        // Appending writes the lines buffered before it first, so no line overtakes another.
        try {
          this.#appendInOrder(line);
        } catch (error) {
          return Promise.reject(error);
        }
        if (mode === 'unsynced') return Promise.resolve();
        if (mode === 'appended') {
          this.#unsynced.push(this.#background);
          if (this.#syncing === undefined) this.#armTimer();
          return Promise.resolve();
        }
        return new Promise<void>((resolve, reject) => {
          this.#unsynced.push({ resolve, reject });
          if (this.#syncing === undefined) this.#armTimer();
        });
    }
  }

  /** Appends and syncs every line given so far; resolves once they are synced. */
  async flush(): Promise<void> {
    while (this.#unsynced.length > 0 || this.#buffered.length > 0 || this.#syncing !== undefined) {
      if (this.#syncSoon !== undefined) {
        clearImmediate(this.#syncSoon);
        this.#syncSoon = undefined;
      }
      if (this.#unsynced.length > 0 || this.#buffered.length > 0) {
        this.#urgent = true;
        this.#startSync();
      }
      await this.#syncing;
    }
  }

  /** Flushes, then closes the file; later appends reject. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#closeRetired();
    if (this.#fd !== undefined) {
      const file = this.#fd;
      this.#fd = undefined;
      this.#fs.close(file);
    }
  }

  #failure(what: string, error: unknown): HintgateError {
    return new HintgateError(
      'audit_write_failed',
      `Could not ${what} the audit log ${this.#path}: ${messageOf(error)}. Check that its directory is writable and the disk has space.`,
      { cause: error },
    );
  }

  /**
   * Appends the buffered lines and then `line`, if given, in file order. The buffered appends
   * then wait for a sync; if the write fails, they are rejected and the error is thrown.
   */
  #appendInOrder(line?: string): void {
    if (this.#buffered.length === 0 && line === undefined) return;
    const waiters = this.#bufferedWaiters;
    const lines = this.#buffered;
    if (line !== undefined) lines.push(line);
    this.#buffered = [];
    this.#bufferedWaiters = [];
    try {
      this.#write(lines);
    } catch (error) {
      const appended = this.#failure('append to', error);
      for (const waiter of waiters) waiter.reject(appended);
      throw appended;
    }
    for (const waiter of waiters) {
      if (waiter.onAppend === true) {
        waiter.resolve();
        this.#unsynced.push(this.#background);
      } else this.#unsynced.push(waiter);
    }
    // Nothing waits for a sync: files rotated away hold nothing unsynced any more.
    if (this.#unsynced.length === 0 && this.#syncing === undefined) this.#closeRetired();
  }

  /** Writes whole lines to the file, rotating it between two lines when due. */
  #write(lines: readonly string[]): void {
    const rotation = this.#rotation;
    if (rotation === undefined) {
      this.#writeText(lines.join(''));
      return;
    }
    if (rotation.daily) {
      const today = Math.floor(this.#now() / DAY_MS);
      if (today !== this.#day) {
        if (this.#size > 0) this.#rotate();
        this.#day = today;
      }
    }
    const { maxBytes } = rotation;
    if (maxBytes === undefined) {
      this.#writeText(lines.join(''));
      return;
    }
    let chunk = '';
    let chunkBytes = 0;
    for (const text of lines) {
      const bytes = Buffer.byteLength(text, 'utf8');
      const filled = this.#size + chunkBytes;
      if (filled > 0 && filled + bytes > maxBytes) {
        if (chunk !== '') this.#writeText(chunk);
        chunk = '';
        chunkBytes = 0;
        if (this.#size > 0) this.#rotate();
      }
      chunk += text;
      chunkBytes += bytes;
    }
    if (chunk !== '') this.#writeText(chunk);
  }

  #writeText(text: string): void {
    const fd = this.#fd as number;
    let offset = 0;
    try {
      // The text as it is, encoded by the write itself: a Buffer only after a short write.
      offset = this.#fs.write(fd, text, 0);
      const length = Buffer.byteLength(text, 'utf8');
      if (offset < length) {
        const data = Buffer.from(text, 'utf8');
        while (offset < length) offset += this.#fs.write(fd, data, offset);
      }
    } finally {
      this.#size += offset;
    }
  }

  /**
   * Starts a new file: the current one is renamed away (see `shiftAuditFiles`) and kept open
   * until its lines are synced. A failure is reported and appends go on to the current file;
   * the next attempt comes after another `maxBytes`, or on the next day.
   */
  #rotate(): void {
    const rotation = this.#rotation as ResolvedAuditRotation;
    const old = this.#fd as number;
    try {
      shiftAuditFiles(this.#path, rotation.keep, this.#fs);
      this.#fd = this.#fs.open(this.#path, 0o600);
    } catch (error) {
      this.#size = 0;
      try {
        this.#onRotateError?.(this.#failure('rotate', error));
      } catch {
        // Reporting must not break the appender.
      }
      return;
    }
    this.#retired.push(old);
    this.#size = 0;
    this.#directoryUnsynced = true;
  }

  #closeRetired(): void {
    this.#closeFiles(this.#retired.splice(0));
  }

  #closeFiles(files: readonly number[]): void {
    for (const file of files) {
      try {
        this.#fs.close(file);
      } catch {
        // Closing a file whose lines need no sync loses nothing.
      }
    }
  }

  async #syncLoop(): Promise<void> {
    for (;;) {
      try {
        this.#appendInOrder();
      } catch {
        // Its appends were rejected; the others still get their sync.
      }
      if (this.#unsynced.length === 0 || !this.#urgent) break;
      const batch = this.#unsynced;
      this.#unsynced = [];
      this.#urgent = false;
      if (this.#timer !== undefined) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
      }
      const retiring = this.#retired;
      this.#retired = [];
      const syncDirectory = this.#directoryUnsynced;
      this.#directoryUnsynced = false;
      try {
        for (const file of retiring) await this.#fs.datasync(file);
        await this.#fs.datasync(this.#fd as number);
        if (syncDirectory) await this.#fs.syncDirectory(dirname(this.#path));
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        if (syncDirectory) this.#directoryUnsynced = true;
        const synced = this.#failure('sync', error);
        for (const waiter of batch) waiter.reject(synced);
      }
      // Synced, or failed with its lines' appends rejected: nothing more to wait for there.
      this.#closeFiles(retiring);
    }
  }

  #startSync(): void {
    if (this.#syncing !== undefined || this.#fd === undefined) return;
    this.#syncing = this.#syncLoop().then(() => {
      this.#syncing = undefined;
      const waiting = this.#unsynced.length > 0 || this.#buffered.length > 0;
      // Appends made since the loop ended found it still running and are picked up here.
      if (this.#urgent && waiting) this.#requestSync();
      else if (waiting) this.#armTimer();
      if (this.#unsynced.length === 0) this.#closeRetired();
    });
  }

  #requestSync(): void {
    this.#urgent = true;
    if (this.#syncing !== undefined || this.#syncSoon !== undefined) return;
    // Calls that end together (responses read in one chunk, a batch's results) then share
    // one append and one sync instead of the first taking them alone and the rest the next.
    this.#syncSoon = setImmediate(() => {
      this.#syncSoon = undefined;
      this.#startSync();
    });
  }

  #armTimer(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#requestSync();
    }, this.#maxDelay);
    // Deferred lines are in the file already; they must not keep the process alive.
    this.#timer.unref?.();
  }
}
