import { resolve } from 'node:path';
import { HintgateError, type HintgateErrorCode } from '../errors/index.js';
import { fsErrorCode } from './describe-fs-error-code.js';
import { RegularFileError, readRegularFile } from './read-regular-file.js';

/** Largest configuration-like file {@link readTextFile} reads by default: 4 MiB. */
export const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;

/** How {@link readTextFile} names the file and its problems. */
export interface ReadTextFileOptions {
  /** The public function asked, for the message about a bad path (`loadPolicy`). */
  readonly caller: string;
  /** What kind of file it is: `policy` (as in "a policy file"), `configuration`. */
  readonly what: string;
  /** Its name in "Cannot read ..." messages: `policy file`, `gateway configuration`. */
  readonly readName: string;
  /** Starts the message about a missing file: `Policy file not found`. */
  readonly notFound: string;
  /** How to create a missing file: `for example with "mode: ask"`. */
  readonly howToCreate: string;
  /** What to pass instead of a directory: `a .yaml or .json file`. */
  readonly expected: string;
  /** Error code for a file that cannot be read. */
  readonly code: HintgateErrorCode;
  /** Largest file read, in bytes. Default {@link MAX_CONFIG_FILE_BYTES}. */
  readonly maxBytes?: number | undefined;
  /**
   * Reads a file as UTF-8, given its absolute path. Default: {@link readRegularFile}, which
   * refuses FIFOs, devices and directories and files over `maxBytes` without hanging or
   * reading them whole.
   */
  readonly readFile?: ((path: string) => Promise<string>) | undefined;
}

/**
 * Reads a configuration-like text file and returns its absolute path and text. A bad path
 * throws `invalid_option`; a missing or unreadable file, a directory, a FIFO, a device or a
 * file larger than `maxBytes` throws `code` with a message that names the file and says
 * what to do.
 */
export async function readTextFile(
  path: unknown,
  options: ReadTextFileOptions,
): Promise<{ readonly absolute: string; readonly text: string }> {
  if (typeof path !== 'string' || path === '') {
    throw new HintgateError(
      'invalid_option',
      `${options.caller} needs the path of a ${options.what} file as a non-empty string, got ${
        typeof path === 'string' ? 'an empty string' : typeof path
      }.`,
    );
  }
  const absolute = resolve(path);
  const maxBytes = options.maxBytes ?? MAX_CONFIG_FILE_BYTES;
  const read =
    options.readFile ?? (async (file: string) => (await readRegularFile(file, { maxBytes })).text);
  try {
    return { absolute, text: await read(absolute) };
  } catch (error) {
    throw new HintgateError(options.code, unreadable(absolute, error, options), {
      cause: error,
    });
  }
}

function unreadable(absolute: string, error: unknown, options: ReadTextFileOptions): string {
  const problem = error instanceof RegularFileError ? error.problem : undefined;
  const code = fsErrorCode(error);
  if (problem === 'missing' || code === 'ENOENT' || code === 'ENOTDIR') {
    return `${options.notFound}: ${absolute}. Create it (${options.howToCreate}), or pass the right path.`;
  }
  if (problem === 'directory' || code === 'EISDIR') {
    return `${absolute} is a directory, not a ${options.what} file; pass the path of ${options.expected}.`;
  }
  if (error instanceof RegularFileError && problem !== 'unreadable') {
    return `Cannot read ${options.readName} ${absolute}: ${error.reason}; pass the path of ${options.expected}.`;
  }
  const reason =
    error instanceof RegularFileError
      ? error.reason
      : error instanceof Error
        ? error.message
        : String(error);
  const cause = fsErrorCode(error instanceof RegularFileError ? error.cause : error);
  const hint =
    cause === 'ELOOP'
      ? 'fix the symbolic links along the path, or pass the path of the file itself'
      : cause === 'ENAMETOOLONG'
        ? 'pass a shorter path'
        : 'check that this process may read it';
  return `Cannot read ${options.readName} ${absolute} (${reason}); ${hint}.`;
}
