import type { NormalizedOutput } from './normalize-output.js';
import type { ContentBlock } from './tool-result.js';

/** Default cap on the text of one result, in characters (not tokens). */
export const DEFAULT_MAX_OUTPUT_CHARS = 25_000;

/** Output after truncation; `truncated` is true when anything was cut. */
export interface TruncatedOutput extends NormalizedOutput {
  readonly truncated: boolean;
}

const textLength = (content: readonly ContentBlock[]): number => {
  let total = 0;
  for (const block of content) if (block.type === 'text') total += block.text.length;
  return total;
};

/** Whether the text of `output` fits in `maxChars` characters, so that truncation leaves it as it is. */
export function outputFits(output: NormalizedOutput, maxChars: number): boolean {
  return textLength(output.content) <= maxChars;
}

/** The top-level array property with the most items: the list of a list-shaped result. */
const listProperty = (structured: Record<string, unknown>): string | undefined => {
  let best: string | undefined;
  let bestLength = 1;
  for (const [key, value] of Object.entries(structured)) {
    if (Array.isArray(value) && value.length > bestLength) {
      best = key;
      bestLength = value.length;
    }
  }
  return best;
};

/**
 * Drops items from the end of the list of a list-shaped result until its JSON fits in
 * `maxChars` (keeping at least one item) and marks it `meta.truncated: true`.
 */
const shrinkList = (
  structured: Record<string, unknown>,
  key: string,
  maxChars: number,
): { structured: Record<string, unknown>; text: string } | undefined => {
  const list = structured[key] as unknown[];
  const meta = structured.meta;
  const withItems = (count: number) => {
    const next = {
      ...structured,
      meta: { ...(typeof meta === 'object' && meta !== null ? meta : {}), truncated: true },
      [key]: list.slice(0, count),
    };
    return { structured: next, text: JSON.stringify(next) };
  };
  let low = 1;
  let high = list.length - 1;
  let best = withItems(1);
  if (best.text.length > maxChars) return best;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = withItems(middle);
    if (candidate.text.length <= maxChars) {
      best = candidate;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
};

const cutText = (text: string, keep: number): string => {
  let end = Math.max(0, keep);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
};

/**
 * Caps the text of a result at `maxChars` characters. A list-shaped structured result
 * (an object with an array property, as paginated APIs return) loses items from the end
 * first and gets `meta.truncated: true`; then text blocks are cut, with a note that says
 * how much was shown (only `…` when `maxChars` is shorter than that note). Non-text blocks
 * are kept.
 */
export function truncateOutput(output: NormalizedOutput, maxChars: number): TruncatedOutput {
  let current = output;
  let truncated = false;
  if (outputFits(current, maxChars)) return { ...current, truncated };

  const structured = current.structuredContent;
  const onlyText = current.content.length === 1 && current.content[0]?.type === 'text';
  const key = structured === undefined ? undefined : listProperty(structured);
  if (structured !== undefined && key !== undefined && onlyText) {
    const shrunk = shrinkList(structured, key, maxChars);
    if (shrunk !== undefined) {
      current = {
        ...current,
        structuredContent: shrunk.structured,
        content: [{ type: 'text', text: shrunk.text }],
      };
      truncated = true;
    }
  }

  const length = textLength(current.content);
  if (length > maxChars) {
    const noteFor = (shown: number) =>
      `\n…[output truncated: ${shown} of ${length} characters shown; narrow the request to see the rest]`;
    // A cap shorter than the note leaves room for an ellipsis at most.
    const fullNote = noteFor(maxChars).length <= maxChars;
    let budget = Math.max(0, maxChars - (fullNote ? noteFor(maxChars).length : 1));
    const note = fullNote ? noteFor(budget) : '…'.slice(0, maxChars);
    const content: ContentBlock[] = [];
    let noted = false;
    for (const block of current.content) {
      if (block.type !== 'text') {
        content.push(block);
        continue;
      }
      if (noted) continue;
      if (block.text.length <= budget) {
        content.push(block);
        budget -= block.text.length;
        continue;
      }
      content.push({ ...block, text: cutText(block.text, budget) + note });
      noted = true;
    }
    current = { ...current, content };
    truncated = true;
  }
  return { ...current, truncated };
}
