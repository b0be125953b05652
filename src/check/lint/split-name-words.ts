/**
 * Splits a tool name into lower-case words: on every character that is not an ASCII letter
 * or digit (`_`, `-`, `.`, spaces, ...) and on camelCase humps, keeping acronyms whole
 * (`fetchURL` -> `fetch`, `url`; `HTTPRequest` -> `http`, `request`). So `deleteFile`,
 * `file_delete` and `file.delete` all contain the word `delete`, while `download` does not
 * contain `own`.
 */
export function splitNameWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+/)
    .flatMap(splitHumps)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

const isUpper = (char: string | undefined): boolean =>
  char !== undefined && char >= 'A' && char <= 'Z';
const isLower = (char: string | undefined): boolean =>
  char !== undefined && char >= 'a' && char <= 'z';
const isDigit = (char: string | undefined): boolean =>
  char !== undefined && char >= '0' && char <= '9';

/**
 * Splits an ASCII letter-and-digit run on camelCase humps in one pass: before an upper-case
 * letter that follows a lower-case letter or a digit, and before the last upper-case letter
 * of a run that a lower-case letter follows (`HTTPRequest`). A regular expression for the
 * second rule (`([A-Z]+)([A-Z][a-z])`) retries the run from each of its letters, which takes
 * quadratic time on a long upper-case name from a server.
 */
function splitHumps(part: string): string[] {
  const words: string[] = [];
  let start = 0;
  for (let i = 1; i < part.length; i += 1) {
    const before = part[i - 1];
    const char = part[i];
    const hump =
      (isUpper(char) && (isLower(before) || isDigit(before))) ||
      (isUpper(before) && isUpper(char) && isLower(part[i + 1]));
    if (hump) {
      words.push(part.slice(start, i));
      start = i;
    }
  }
  words.push(part.slice(start));
  return words;
}
