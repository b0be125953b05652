/**
 * Characters a terminal may act on instead of printing: C0 controls (ESC, CR, LF, BS, ...),
 * DEL, C1 controls (U+009B is a one-byte CSI on some terminals), bidirectional and other
 * invisible format characters that reorder or hide text, and the line and paragraph
 * separators.
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

const toVisibleEscape = (char: string): string =>
  `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;

/**
 * Makes untrusted text safe to print on a terminal: every control, bidirectional or
 * invisible format character becomes a visible `\uXXXX`, so text from a tool or its
 * arguments can neither move the cursor, clear the screen, recolour, hide nor reorder what
 * the prompt shows. The result is one line.
 */
export function neutralizeTerminalText(text: string): string {
  return text.replace(UNSAFE, toVisibleEscape);
}
