import type { BigIntStats } from 'node:fs';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { describeFsErrorCode, fsErrorCode } from './describe-fs-error-code.js';

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /** Largest file read, in bytes; a larger one is refused without being read whole. */
  readonly maxBytes: number;
  /**
   * Refuse a symbolic link as the last component of the path instead of following it
   * (`O_NOFOLLOW`; it then counts as `special`). Default false.
   */
  readonly noFollow?: boolean;
}

/** What {@link readRegularFile} read. */
export interface RegularFileContent {
  /** The content, decoded as UTF-8 (invalid sequences become U+FFFD, as `readFile` does). */
  readonly text: string;
  /** The content as read. */
  readonly bytes: Buffer;
  /** The opened file's own status (`fstat`), taken before reading. */
  readonly stats: BigIntStats;
}

/** Why {@link readRegularFile} did not read a file. */
export type RegularFileProblem =
  /** The file does not exist (`ENOENT`, or `ENOTDIR` for a path through a file). */
  | 'missing'
  /** It is a directory. */
  | 'directory'
  /** It is a FIFO, a socket, a device or another kind of file that is not regular. */
  | 'special'
  /** It is larger than `maxBytes`. */
  | 'too_large'
  /** Any other failure: permissions, a loop of symbolic links, an I/O error. */
  | 'unreadable';

/**
 * {@link readRegularFile} refused a file or could not read it. `message` says which file,
 * why (in words, never a bare `ELOOP`) and, for a size, the limit.
 */
export class RegularFileError extends Error {
  /** The path as given. */
  readonly path: string;
  /** What kind of problem it is. */
  readonly problem: RegularFileProblem;
  /** Why, in words, without the path: `it is a FIFO (named pipe), not a regular file`. */
  readonly reason: string;
  /** With `too_large`: the size the file has (at least), in bytes. */
  readonly size: number | undefined;

  constructor(
    path: string,
    problem: RegularFileProblem,
    reason: string,
    options: { readonly cause?: unknown; readonly size?: number } = {},
  ) {
    super(`${path}: ${reason}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RegularFileError';
    this.path = path;
    this.problem = problem;
    this.reason = reason;
    this.size = options.size;
  }
}

// Not blocking on a FIFO with no writer, and never becoming the controlling terminal.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const CHUNK_BYTES = 64 * 1024;

/** `4 MiB`, `512 KiB`, `100 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** What kind of file a non-regular file is, for messages. */
function kindOf(stats: BigIntStats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Reads at most `limit` bytes from the handle's start; fewer when the file ends first. The
 * file's size as `fstat` gave it is read in one go (a lock file of tens of megabytes takes
 * one read, not hundreds of 64 KiB ones), one byte more to see that it ended; a file that
 * grew meanwhile goes on in 64 KiB chunks.
 */
async function readUpTo(handle: FileHandle, limit: number, expected: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const want = Math.max(CHUNK_BYTES, expected - total + 1);
    const buffer = Buffer.allocUnsafe(Math.min(want, limit - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, total);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * Reads a file someone named (a configuration, a policy, a state file) safely: it is opened
 * without blocking (a FIFO with no writer does not hang), its own status is taken from the
 * opened handle (`fstat`), anything but a regular file is refused (FIFOs, devices such as
 * `/dev/zero` or `/dev/urandom`, sockets, directories), a file larger than `maxBytes` is
 * refused by its size, and at most `maxBytes + 1` bytes are ever read (a file that grows,
 * or claims size 0 as files under `/proc` do, cannot make it read more). Symbolic links
 * are followed.
 *
 * @throws RegularFileError naming the file and the problem; its `cause` is the fs error.
 */
export async function readRegularFile(
  path: string,
  options: ReadRegularFileOptions,
): Promise<RegularFileContent> {
  const { maxBytes } = options;
  let handle: FileHandle;
  const noFollow = options.noFollow === true ? (constants.O_NOFOLLOW ?? 0) : 0;
  try {
    handle = await open(path, READ_FLAGS | noFollow);
  } catch (error) {
    const code = fsErrorCode(error);
    if (code === 'ELOOP' && noFollow !== 0) {
      throw new RegularFileError(path, 'special', 'it is a symbolic link, not a regular file', {
        cause: error,
      });
    }
    const problem: RegularFileProblem =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'missing'
        : code === 'EISDIR'
          ? 'directory'
          : code === 'ENXIO'
            ? 'special'
            : 'unreadable';
    throw new RegularFileError(path, problem, describeFsErrorCode(error), { cause: error });
  }
  try {
    const stats = await handle.stat({ bigint: true });
    if (stats.isDirectory()) {
      throw new RegularFileError(path, 'directory', 'it is a directory, not a file');
    }
    if (!stats.isFile()) {
      throw new RegularFileError(path, 'special', `it is ${kindOf(stats)}, not a regular file`);
    }
    const tooLarge = (size: string, bytes: number): RegularFileError =>
      new RegularFileError(
        path,
        'too_large',
        `it is ${size}, more than the limit of ${formatBytes(maxBytes)}`,
        { size: bytes },
      );
    if (stats.size > BigInt(maxBytes)) throw tooLarge(`${stats.size} bytes`, Number(stats.size));
    const bytes = await readUpTo(handle, maxBytes + 1, Number(stats.size));
    if (bytes.length > maxBytes) throw tooLarge(`more than ${maxBytes} bytes`, bytes.length);
    return { text: bytes.toString('utf8'), bytes, stats };
  } catch (error) {
    if (error instanceof RegularFileError) throw error;
    throw new RegularFileError(path, 'unreadable', describeFsErrorCode(error), { cause: error });
  } finally {
    await handle.close().catch(() => {});
  }
}
