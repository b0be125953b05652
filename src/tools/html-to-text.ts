import { HintgateError } from '../errors/index.js';
import { ownValue } from '../tool/index.js';

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  middot: '·',
  bull: '•',
};

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ownValue(ENTITIES, name.toLowerCase()) ?? whole;
  });

const BLOCK =
  /<\/?(p|div|section|article|header|footer|nav|aside|main|ul|ol|table|tr|blockquote|pre|br|hr|dl|dt|dd|figure|figcaption|form|details|summary|h[1-6])\b[^>]*>/gi;

/** A page converted by {@link htmlToText}. */
export interface HtmlText {
  /** Content of `<title>`, when there is one. */
  readonly title?: string;
  /** Visible text: block elements on their own lines, list items as `- `, headings as `#`. */
  readonly text: string;
}

const INVISIBLE = /<(script|style|noscript|template|svg|iframe|object|canvas)\b/gi;

/**
 * Removes each element from a match of `open` (whose group 1, if any, names it) to the
 * first match of `closeFor(name)` after it, in linear time: an element with no close after
 * it stays, and as no later one of that name can have a close either, its name is no longer
 * searched. (A single lazy regular expression such as `<!--[\s\S]*?-->` scans to the end
 * of the page from every unclosed opening, which a hostile page makes take hours.)
 */
const removeElements = (html: string, open: RegExp, closeFor: (name: string) => RegExp): string => {
  const unclosed = new Set<string>();
  const kept: string[] = [];
  let at = 0;
  let from = 0;
  for (;;) {
    open.lastIndex = from;
    const start = open.exec(html);
    if (start === null) break;
    const name = (start[1] ?? '').toLowerCase();
    from = start.index + start[0].length;
    if (unclosed.has(name)) continue;
    const close = closeFor(name);
    close.lastIndex = from;
    const end = close.exec(html);
    if (end === null) {
      unclosed.add(name);
      continue;
    }
    kept.push(html.slice(at, start.index));
    at = end.index + end[0].length;
    from = at;
  }
  kept.push(html.slice(at));
  return kept.join('');
};

const titleOf = (html: string): string => {
  const open = /<title\b[^>]*>/i.exec(html);
  if (open === null) return '';
  const close = /<\/title\s*>/gi;
  close.lastIndex = open.index + open[0].length;
  const end = close.exec(html);
  if (end === null) return '';
  return decodeEntities(html.slice(open.index + open[0].length, end.index))
    .replace(/\s+/g, ' ')
    .trim();
};

/**
 * Turns HTML into plain text, crudely and without a parser: comments, `<head>`, scripts,
 * styles and other invisible elements go, headings become `#` lines, list items `- `
 * lines, block elements line breaks; remaining tags are stripped, entities decoded, and
 * runs of whitespace and blank lines collapsed. Linear in the length of the page, whatever
 * the page holds.
 */
export function htmlToText(html: string): HtmlText {
  if (typeof html !== 'string') {
    throw new HintgateError('invalid_option', 'htmlToText: html must be a string.');
  }
  // Tags end at ">": after the last one no tag pattern can match, so only what comes
  // before it is searched (a "<" with no ">" after it would be scanned to the end each time).
  const lastTagEnd = html.lastIndexOf('>') + 1;
  const title = titleOf(html.slice(0, lastTagEnd));
  const visible = removeElements(
    removeElements(
      removeElements(html, /<!--/g, () => /-->/g),
      /<(head)\b/gi,
      () => /<\/head\s*>/gi,
    ),
    INVISIBLE,
    (name) => new RegExp(`</${name}\\s*>`, 'gi'),
  );
  const cut = visible.lastIndexOf('>') + 1;
  const text = decodeEntities(
    visible
      .slice(0, cut)
      .replace(/<h([1-6])\b[^>]*>/gi, (_tag, level: string) => `\n${'#'.repeat(Number(level))} `)
      .replace(/<li\b[^>]*>/gi, '\n- ')
      .replace(/<\/?(td|th)\b[^>]*>/gi, ' ')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, '') + visible.slice(cut),
  )
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return title === '' ? { text } : { title, text };
}
