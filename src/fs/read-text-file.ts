import { readFile as readFileFromDisk } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HintgateError, type HintgateErrorCode } from '../errors/hintgate-error.js';

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
  /** Reads a file as UTF-8. Default: `fs.readFile`. */
  readonly readFile?: ((path: string) => Promise<string>) | undefined;
}

/**
 * Reads a configuration-like text file and returns its absolute path and text. A bad path
 * throws `invalid_option`; a missing, unreadable file or a directory throws `code` with a
 * message that says what to do.
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
  const read = options.readFile ?? ((file: string) => readFileFromDisk(file, 'utf8'));
  try {
    return { absolute, text: await read(absolute) };
  } catch (error) {
    throw new HintgateError(options.code, unreadable(absolute, error, options), { cause: error });
  }
}

function unreadable(absolute: string, error: unknown, options: ReadTextFileOptions): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return `${options.notFound}: ${absolute}. Create it (${options.howToCreate}), or pass the right path.`;
  }
  if (code === 'EISDIR') {
    return `${absolute} is a directory, not a ${options.what} file; pass the path of ${options.expected}.`;
  }
  const reason = error instanceof Error ? error.message : String(error);
  return `Cannot read ${options.readName} ${absolute} (${reason}); check that this process may read it.`;
}
