import { applyPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';

/**
 * Most line comparisons the hunks of one patch may take in all (placing them, and finding
 * the one that fails). Placing a hunk searches the whole file for its context, so a hostile
 * hunk against a large repetitive file could otherwise hold the main thread for minutes.
 */
export const MAX_LINE_COMPARISONS = 10_000_000;

/** Line comparisons left to a call, shared by the files of one patch. */
export interface ComparisonBudget {
  /** Comparisons left; {@link applyFileHunks} counts it down. */
  left: number;
}

/** Characters of a line quoted in a message. */
const QUOTED_CHARS = 160;
/** Other places named where a hunk's first line occurs. */
const PLACES_NAMED = 5;

/** Thrown from the comparison callback to stop jsdiff once the budget is spent. */
class BudgetSpent extends Error {}

const quote = (line: string): string =>
  JSON.stringify(line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line);

const header = (hunk: StructuredPatchHunk): string =>
  `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;

/** The lines a hunk expects in the file: its context and `-` lines, without their marks. */
const expectedLines = (hunk: StructuredPatchHunk): string[] =>
  hunk.lines
    .filter((line) => line === '' || line[0] === ' ' || line[0] === '-')
    .map((line) => line.slice(1));

/** Why `hunk` did not fit `lines` where its header puts it, in words. */
function mismatch(lines: readonly string[], hunk: StructuredPatchHunk, crlf: boolean): string {
  const expected = expectedLines(hunk);
  const start = Math.max(0, Math.min(hunk.oldStart - 1, lines.length));
  const fileLine = (index: number): string | undefined => {
    const line = lines[index];
    return crlf && line?.endsWith('\r') ? line.slice(0, -1) : line;
  };
  for (const [offset, want] of expected.entries()) {
    const at = start + offset;
    const have = fileLine(at);
    if (have === want) continue;
    const first = expected[0];
    const elsewhere: number[] = [];
    if (first !== undefined) {
      for (let i = 0; i < lines.length && elsewhere.length < PLACES_NAMED; i += 1) {
        if (i !== start && fileLine(i) === first) elsewhere.push(i + 1);
      }
    }
    const found =
      first === undefined || (elsewhere.length === 0 && fileLine(start) === first)
        ? ''
        : elsewhere.length === 0
          ? ` Its first line ${quote(first)} occurs nowhere in the file.`
          : ` Its first line also occurs at line${elsewhere.length === 1 ? '' : 's'} ${elsewhere.join(', ')}, but the lines after it differ there too.`;
    const where =
      have === undefined
        ? `the file ends at line ${lines.length}, where the hunk still expects ${quote(want)}`
        : `line ${at + 1} of the file is ${quote(have)}, where the hunk expects ${quote(want)}`;
    return `${where}.${found}`;
  }
  if (hunk.lines.some((line) => line.startsWith('\\'))) {
    return 'its lines match, but its "\\ No newline at end of file" marker does not match how the file ends.';
  }
  return 'its lines match at its own position, but that overlaps the hunk before it; hunks must be in file order and must not overlap.';
}

/**
 * Applies one file's hunks to its text with jsdiff's `applyPatch`, fuzz-free: every
 * context and `-` line must match exactly. A hunk may sit at another line than its header
 * says (jsdiff searches outward from there, and moves later hunks by the same offset), as
 * GNU patch does. CRLF files take LF hunks. Nothing is written here.
 *
 * @param shown The file's workspace path, for messages.
 * @param budget Line comparisons left (see {@link MAX_LINE_COMPARISONS}); pass one object
 * for all files of a patch.
 * @throws Error naming the first hunk that does not apply (number, header, and the first
 * line that differs at its position), or saying the hunks took too much work to place.
 */
export function applyFileHunks(
  text: string,
  hunks: readonly StructuredPatchHunk[],
  shown: string,
  budget: ComparisonBudget = { left: MAX_LINE_COMPARISONS },
): string {
  if (hunks.length === 0) return text;
  const lines = text.split('\n');
  // A header far past the end would make jsdiff step back line by line from there.
  const placed = hunks.map((hunk) => ({
    ...hunk,
    oldStart: Math.max(1, Math.min(hunk.oldStart, lines.length + 1)),
  }));
  const compareLine = (_: number, line: string | undefined, __: string, content: string) => {
    budget.left -= 1;
    if (budget.left < 0) throw new BudgetSpent();
    return line === content;
  };
  const attempt = (count: number): string | false => {
    const patch: StructuredPatch = {
      oldFileName: shown,
      newFileName: shown,
      oldHeader: undefined,
      newHeader: undefined,
      hunks: placed.slice(0, count),
    };
    return applyPatch(text, patch, { fuzzFactor: 0, compareLine });
  };
  let failed = placed.length;
  try {
    const result = attempt(placed.length);
    if (result !== false) return result;
    // The first prefix of hunks that fails ends with the hunk that does not apply.
    for (let count = 1; count < placed.length; count += 1) {
      if (attempt(count) === false) {
        failed = count;
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    throw new Error(
      `The hunks for ${shown} could not be placed within the patch's ${MAX_LINE_COMPARISONS} line comparisons (the file is large and repetitive, or the hunks are). Split the patch into smaller hunks with distinctive context lines. Nothing was changed.`,
    );
  }
  const hunk = hunks[failed - 1] as StructuredPatchHunk;
  const crlf = text.includes('\r\n');
  throw new Error(
    `Hunk ${failed} of ${hunks.length} for ${shown} (${header(hunk)}) does not apply: ${mismatch(lines, hunk, crlf)} Context and "-" lines must match the file exactly (no fuzz); read the file again with read_file and correct the hunk. Nothing was changed.`,
  );
}
