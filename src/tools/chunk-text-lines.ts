/** A run of lines of a file. */
export interface TextChunk {
  /** First line, 1-based. */
  readonly start: number;
  /** Last line, 1-based, inclusive. */
  readonly end: number;
  /** The lines, joined with `\n` (CR of CRLF dropped), cut at `maxChars`. */
  readonly text: string;
}

/** Options of {@link chunkTextLines}. */
export interface ChunkTextLinesOptions {
  /** Lines per chunk. */
  readonly lines: number;
  /** Lines a chunk shares with the one before, so that a passage cut in two is found whole. */
  readonly overlap: number;
  /** Characters of a chunk kept (a file of very long lines is cut, not skipped). */
  readonly maxChars: number;
}

/**
 * Cuts a text into chunks of `lines` lines that overlap by `overlap` lines, leaving out
 * chunks of only blank lines. Each chunk's text is cut at `maxChars` characters, so that
 * a minified file makes a few chunks of bounded size.
 */
export function chunkTextLines(text: string, options: ChunkTextLinesOptions): TextChunk[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const step = Math.max(1, options.lines - options.overlap);
  const chunks: TextChunk[] = [];
  for (let first = 0; first < lines.length; first += step) {
    const last = Math.min(first + options.lines, lines.length);
    let chunk = '';
    for (let i = first; i < last && chunk.length < options.maxChars; i += 1) {
      const line = lines[i] ?? '';
      chunk += `${i === first ? '' : '\n'}${line.endsWith('\r') ? line.slice(0, -1) : line}`;
    }
    if (chunk.trim() !== '') {
      chunks.push({ start: first + 1, end: last, text: chunk.slice(0, options.maxChars) });
    }
    if (last === lines.length) break;
  }
  return chunks;
}
