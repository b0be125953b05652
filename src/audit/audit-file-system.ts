import {
  closeSync,
  existsSync,
  fdatasync,
  fstatSync,
  fsync,
  mkdirSync,
  openSync,
  renameSync,
  writeSync,
} from 'node:fs';

/**
 * The file operations of the JSONL audit sink: the defaults are Node's, tests give their
 * own. Appends and renames are synchronous (a short line into the page cache, a rare
 * rotation), syncs asynchronous.
 */
export interface AuditFileSystem {
  /** Creates a directory and its missing parents. */
  readonly mkdir: (directory: string) => void;
  /** True when `path` exists. */
  readonly exists: (path: string) => boolean;
  /** Opens `path` for appending, creating it with `mode`; returns the descriptor. */
  readonly open: (path: string, mode: number) => number;
  /**
   * Writes the bytes of `data` (a string as UTF-8) from byte `offset` at the end of the file;
   * returns how many it wrote. The appender gives a line's text as it is first, so that the
   * common whole write needs no Buffer, and the bytes of the rest after a short write.
   */
  readonly write: (fd: number, data: Uint8Array | string, offset: number) => number;
  /** Flushes the file's data to the disk (`fdatasync`). */
  readonly datasync: (fd: number) => Promise<void>;
  /** Flushes a directory's entries to the disk, so a file created in it survives a crash. */
  readonly syncDirectory: (directory: string) => Promise<void>;
  /** Closes a descriptor. */
  readonly close: (fd: number) => void;
  /** Size in bytes and time of last change (ms since the epoch) of an open file. */
  readonly stat: (fd: number) => { readonly size: number; readonly mtimeMs: number };
  /** Renames a file, replacing `to` if it exists (used by rotation). */
  readonly rename: (from: string, to: string) => void;
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
  write: (fd, data, offset) =>
    typeof data !== 'string'
      ? writeSync(fd, data, offset)
      : offset === 0
        ? writeSync(fd, data)
        : writeSync(fd, Buffer.from(data, 'utf8'), offset),
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
  stat: (fd) => fstatSync(fd),
  rename: renameSync,
};
