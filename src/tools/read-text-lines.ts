import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { looksBinary } from './looks-binary.js';

/** Characters of one line shown at most; the rest of a longer line is cut with a note. */
export const MAX_LINE_CHARS = 2000;

const CHUNK_BYTES = 64 * 1024;

/** Options of {@link readTextLines}. */
export interface ReadTextLinesOptions {
  /** First line to return, 1-based. */
  readonly offset: number;
  /** Most lines to return. */
  readonly limit: number;
  /** Most characters of output (line numbers and newlines included). */
  readonly maxChars: number;
  /** Stops reading when aborted. */
  readonly signal?: AbortSignal;
}

/** What {@link readTextLines} read. */
export interface TextLines {
  /** Lines as `<number>\t<text>`, numbers right-aligned to six places. */
  readonly lines: readonly string[];
  /** Number of the last line read: the file's line count when `complete`. */
  readonly lastLine: number;
  /** True when the end of the file was reached. */
  readonly complete: boolean;
  /** Why reading stopped before the end: the line `limit` or the `maxChars` budget. */
  readonly stoppedBy?: 'limit' | 'chars';
  /** Size of the file in bytes. */
  readonly size: number;
}

/** Thrown by {@link readTextLines} for a file whose first bytes hold a NUL byte. */
export class BinaryFileError extends Error {
  /** @param size Size of the file in bytes. */
  constructor(readonly size: number) {
    super('binary file');
    this.name = 'BinaryFileError';
  }
}

const numbered = (lineNumber: number, text: string, cut: number): string => {
  const shown = text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) : text;
  const total = text.length + cut;
  const note = total > MAX_LINE_CHARS ? `… [line cut: ${total} characters in all]` : '';
  return `${String(lineNumber).padStart(6)}\t${shown}${note}`;
};

/**
 * Streams a text file and returns the numbered lines from `offset` on, until `limit` lines
 * or `maxChars` characters. Lines before `offset` are read and dropped, never held, and a
 * very long line keeps only its head, so memory stays small for files of any size.
 *
 * @throws BinaryFileError when the file looks binary (a NUL byte near its start), and an
 * Error when it is not a regular file once open (it is opened without blocking).
 */
export async function readTextLines(
  absolute: string,
  options: ReadTextLinesOptions,
): Promise<TextLines> {
  // Without blocking: a FIFO put in the file's place after the caller's check must not hold
  // a thread of the pool (and with four of them, every file operation of the process).
  const handle = await open(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) {
      throw new Error(
        'It is not a regular file (a device, socket or pipe); only text files are read.',
      );
    }
    const size = opened.size;
    const buffer = Buffer.alloc(CHUNK_BYTES);
    const decoder = new TextDecoder('utf-8');
    const lines: string[] = [];
    let chars = 0;
    let lineNumber = 0;
    let pending = '';
    let pendingCut = 0;
    let stoppedBy: 'limit' | 'chars' | undefined;

    const take = (raw: string, cut: number): boolean => {
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      lineNumber += 1;
      if (lineNumber < options.offset) return true;
      if (lines.length >= options.limit) {
        stoppedBy = 'limit';
        return false;
      }
      const line = numbered(lineNumber, text, cut);
      if (lines.length > 0 && chars + line.length + 1 > options.maxChars) {
        stoppedBy = 'chars';
        return false;
      }
      lines.push(line);
      chars += line.length + 1;
      return true;
    };

    let position = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
      if (position === 0 && looksBinary(buffer.subarray(0, bytesRead))) {
        throw new BinaryFileError(size);
      }
      position += bytesRead;
      pending +=
        bytesRead === 0
          ? decoder.decode()
          : decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      let start = 0;
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
        const more = take(pending.slice(start, end), pendingCut);
        pendingCut = 0;
        start = end + 1;
        if (!more) break;
      }
      if (stoppedBy !== undefined) {
        // The line that did not fit is not counted as read.
        lineNumber -= 1;
        break;
      }
      pending = pending.slice(start);
      if (pending.length > CHUNK_BYTES) {
        // A line with no end in sight: keep what will be shown, count the rest.
        pendingCut += pending.length - (MAX_LINE_CHARS + 1);
        pending = pending.slice(0, MAX_LINE_CHARS + 1);
      }
      if (bytesRead === 0) {
        if (pending !== '' || pendingCut > 0) take(pending, pendingCut);
        if (stoppedBy !== undefined) lineNumber -= 1;
        break;
      }
    }
    return {
      lines,
      lastLine: lineNumber,
      complete: stoppedBy === undefined,
      ...(stoppedBy === undefined ? {} : { stoppedBy }),
      size,
    };
  } finally {
    await handle.close();
  }
}
