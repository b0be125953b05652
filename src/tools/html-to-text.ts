import { HintgateError } from '../errors/hintgate-error.js';

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
    return ENTITIES[name.toLowerCase()] ?? whole;
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

/**
 * Turns HTML into plain text, crudely and without a parser: comments, `<head>`, scripts,
 * styles and other invisible elements go, headings become `#` lines, list items `- `
 * lines, block elements line breaks; remaining tags are stripped, entities decoded, and
 * runs of whitespace and blank lines collapsed.
 */
export function htmlToText(html: string): HtmlText {
  if (typeof html !== 'string') {
    throw new HintgateError('invalid_option', 'htmlToText: html must be a string.');
  }
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title =
    titleMatch === null
      ? ''
      : decodeEntities(titleMatch[1] ?? '')
          .replace(/\s+/g, ' ')
          .trim();
  const text = decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<head\b[\s\S]*?<\/head\s*>/gi, '')
      .replace(
        /<(script|style|noscript|template|svg|iframe|object|canvas)\b[\s\S]*?<\/\1\s*>/gi,
        '',
      )
      .replace(/<h([1-6])\b[^>]*>/gi, (_tag, level: string) => `\n${'#'.repeat(Number(level))} `)
      .replace(/<li\b[^>]*>/gi, '\n- ')
      .replace(/<\/?(td|th)\b[^>]*>/gi, ' ')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return title === '' ? { text } : { title, text };
}
