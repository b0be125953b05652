import { RE2JS } from 're2js';

/** Options of {@link compileLinearGlob}. */
export interface LinearGlobOptions {
  /**
   * What a `**` that is not a whole path segment (`a**b`, `file:**`) means: `'any'`, any
   * run of characters, `/` included (approval keys, tool names); `'star'`, the same as `*`
   * (picomatch's reading, for file paths). Default `'star'`.
   */
  readonly partialGlobstar?: 'any' | 'star';
  /** Let a single `*` match across `/` too, as `**` does. Default false. */
  readonly starCrossesSlash?: boolean;
}

type Node =
  | { readonly kind: 'char'; readonly char: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'class'; readonly source: string }
  | { readonly kind: 'star'; readonly run: number }
  | { readonly kind: 'brace'; readonly alternatives: readonly Node[][] };

/** Characters with a meaning in a regular expression outside a class, in JS and RE2 alike. */
const SYNTAX = new Set([
  '\\',
  '^',
  '$',
  '.',
  '|',
  '?',
  '*',
  '+',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '/',
]);
/** Characters escaped inside a class. */
const CLASS_SYNTAX = new Set(['\\', ']', '[', '^', '-']);

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7f',
  blank: ' \\t',
  digit: '0-9',
  lower: 'a-z',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\r\\n\\v\\f',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: 'A-Fa-f0-9',
};

const literal = (char: string): string => (SYNTAX.has(char) ? `\\${char}` : char);
const classLiteral = (char: string): string => (CLASS_SYNTAX.has(char) ? `\\${char}` : char);

/** The glob could not be read; the message says where and why. */
class GlobSyntaxError extends Error {
  override name = 'GlobSyntaxError';
}

/** Parses `[...]` at `open`; returns the class's regular-expression source and its end. */
function parseClass(pattern: string, open: number): { source: string; end: number } | undefined {
  let i = open + 1;
  let negated = false;
  if (pattern[i] === '!' || pattern[i] === '^') {
    negated = true;
    i += 1;
  }
  let body = '';
  let first = true;
  for (; i < pattern.length; first = false) {
    let char = pattern[i] as string;
    if (char === ']' && !first) return { source: `[${negated ? '^' : ''}${body}]`, end: i };
    if (char === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      const name = close === -1 ? undefined : pattern.slice(i + 2, close);
      const members = name === undefined ? undefined : POSIX_CLASSES[name];
      if (members !== undefined && close !== -1) {
        body += members;
        i = close + 2;
        continue;
      }
    }
    if (char === '\\' && i + 1 < pattern.length) {
      i += 1;
      char = pattern[i] as string;
    }
    i += 1;
    if (pattern[i] === '-' && pattern[i + 1] !== undefined && pattern[i + 1] !== ']') {
      let to = pattern[i + 1] as string;
      i += 2;
      if (to === '\\' && i < pattern.length) {
        to = pattern[i] as string;
        i += 1;
      }
      if ((to.codePointAt(0) ?? 0) < (char.codePointAt(0) ?? 0)) {
        throw new GlobSyntaxError(`the range ${char}-${to} is out of order`);
      }
      body += `${classLiteral(char)}-${classLiteral(to)}`;
    } else {
      body += classLiteral(char);
    }
  }
  return undefined;
}

/** Parses a sequence until `}` or `,` of an enclosing brace (when `inBrace`), or the end. */
function parseSequence(
  pattern: string,
  start: number,
  inBrace: boolean,
): { nodes: Node[]; end: number } {
  const nodes: Node[] = [];
  let i = start;
  while (i < pattern.length) {
    const char = pattern[i] as string;
    if (inBrace && (char === ',' || char === '}')) break;
    if (char === '\\') {
      nodes.push({ kind: 'char', char: pattern[i + 1] ?? '\\' });
      i += 2;
    } else if (char === '*') {
      let end = i;
      while (pattern[end] === '*') end += 1;
      nodes.push({ kind: 'star', run: end - i });
      i = end;
    } else if (char === '?') {
      nodes.push({ kind: 'any' });
      i += 1;
    } else if (char === '[') {
      const parsed = parseClass(pattern, i);
      if (parsed === undefined) {
        nodes.push({ kind: 'char', char });
        i += 1;
      } else {
        nodes.push({ kind: 'class', source: parsed.source });
        i = parsed.end + 1;
      }
    } else if (char === '{') {
      const brace = parseBrace(pattern, i);
      if (brace === undefined) {
        nodes.push({ kind: 'char', char });
        i += 1;
      } else {
        nodes.push(brace.node);
        i = brace.end + 1;
      }
    } else {
      nodes.push({ kind: 'char', char });
      i += 1;
    }
  }
  return { nodes, end: i };
}

/** `{a,b,...}` at `open` with at least one comma; undefined when it is to be read literally. */
function parseBrace(pattern: string, open: number): { node: Node; end: number } | undefined {
  const alternatives: Node[][] = [];
  let i = open + 1;
  for (;;) {
    const { nodes, end } = parseSequence(pattern, i, true);
    alternatives.push(nodes);
    if (end >= pattern.length) return undefined;
    if (pattern[end] === '}') {
      return alternatives.length < 2 ? undefined : { node: { kind: 'brace', alternatives }, end };
    }
    i = end + 1;
  }
}

interface Emitted {
  readonly source: string;
  /** Most unbounded repetitions on one path through the expression. */
  readonly unbounded: number;
}

const isSlash = (node: Node | undefined): boolean => node?.kind === 'char' && node.char === '/';

/**
 * Emits `nodes` as regular-expression source. `startsSegment`/`endsSegment`: whether what
 * comes before / after the sequence is a segment boundary (start, end, or `/`).
 */
function emit(
  nodes: readonly Node[],
  options: Required<LinearGlobOptions>,
  startsSegment: boolean,
  endsSegment: boolean,
  topLevel: boolean,
): Emitted {
  let source = '';
  let unbounded = 0;
  const segmentStart = (index: number): boolean =>
    index === 0 ? startsSegment : isSlash(nodes[index - 1]);
  const segmentEnd = (index: number): boolean =>
    index === nodes.length - 1 ? endsSegment : isSlash(nodes[index + 1]);
  for (let index = 0; index < nodes.length; index += 1) {
    const node = nodes[index] as Node;
    switch (node.kind) {
      case 'char': {
        const next = nodes[index + 1];
        // `a/**` at the end also matches `a` itself.
        if (
          node.char === '/' &&
          next?.kind === 'star' &&
          (next.run >= 2 || options.starCrossesSlash) &&
          index + 1 === nodes.length - 1 &&
          endsSegment
        ) {
          source += '(?:/.*)?';
          unbounded += 1;
          index += 1;
        } else {
          source += literal(node.char);
        }
        break;
      }
      case 'any':
        source += '[^/]';
        break;
      case 'class':
        source += node.source;
        break;
      case 'star': {
        const globstar = node.run >= 2 || options.starCrossesSlash;
        const starts = segmentStart(index);
        const ends = segmentEnd(index);
        unbounded += 1;
        if (globstar && starts && ends) {
          if (isSlash(nodes[index + 1])) {
            // `**/` : any number of whole segments, none included.
            source += '(?:.*/)?';
            index += 1;
          } else {
            source += '.*';
          }
        } else if (globstar && (options.partialGlobstar === 'any' || options.starCrossesSlash)) {
          source += '.*';
        } else {
          // A star that is the whole last segment matches something (`src/*` is not `src/`).
          const wholeLast = topLevel && starts && index === nodes.length - 1 && endsSegment;
          source += wholeLast ? '[^/]+' : '[^/]*';
        }
        break;
      }
      case 'brace': {
        const parts = node.alternatives.map((alternative) =>
          emit(alternative, options, segmentStart(index), segmentEnd(index), false),
        );
        source += `(?:${parts.map((part) => part.source).join('|')})`;
        unbounded += Math.max(...parts.map((part) => part.unbounded));
        break;
      }
    }
  }
  return { source, unbounded };
}

/**
 * Compiles a glob into a matcher that takes time linear in the length of the text it is
 * given, whatever the pattern (a model's or a configuration's) and the text (a path, an
 * approval key, a tool name from a model or a server): a backtracking regular expression
 * built from a glob such as `*a*a*a*b` can take hours on a name of a hundred characters.
 *
 * Syntax, as picomatch reads it with `dot: true`: `*` (any run of characters except `/`),
 * `?` (one character except `/`), `**` as a whole path segment (any number of segments:
 * `src/**` also matches `src`, `**\/x` also matches `x`), `[...]` classes (`!`/`^`
 * negation, ranges, POSIX `[:alpha:]` and the like), `{a,b}` alternatives (nested), `\`
 * escapes and a leading `!` that negates the whole pattern. Not supported, and read
 * literally: extglobs (`+(a|b)`), brace ranges (`{1..3}`) and braces with one alternative.
 * Unlike picomatch, `.` and `..` segments are not special (`*` matches them), `[!a]` is a
 * negated class, and no trailing `/` is ignored. The empty string matches nothing.
 *
 * The pattern becomes one regular expression. When no path through it repeats more than
 * once without bound (`github_*`, `file:src/**`, `{a,b}*`), V8 runs it: backtracking has
 * only one repetition to retry, so it stays linear. Otherwise (`**\/*.ts`, `*a*b`) it runs
 * on re2js, a port of RE2 that never backtracks.
 *
 * @throws Error when the pattern cannot be compiled (a class range out of order).
 */
export function compileLinearGlob(
  pattern: string,
  options: LinearGlobOptions = {},
): (value: string) => boolean {
  let body = pattern;
  let negated = false;
  while (body.startsWith('!') && body.length > 1) {
    negated = !negated;
    body = body.slice(1);
  }
  const resolved: Required<LinearGlobOptions> = {
    partialGlobstar: options.partialGlobstar ?? 'star',
    starCrossesSlash: options.starCrossesSlash ?? false,
  };
  const { nodes } = parseSequence(body, 0, false);
  const { source, unbounded } = emit(nodes, resolved, true, true, true);
  const anchored = `^(?:${source})$`;
  let test: (value: string) => boolean;
  if (unbounded <= 1) {
    const regex = new RegExp(anchored, 'su');
    test = (value) => regex.test(value);
  } else {
    const regex = RE2JS.compile(anchored, RE2JS.DOTALL);
    test = (value) => regex.testExact(value);
  }
  // As picomatch: the empty string matches nothing, negated or not.
  return negated ? (value) => value !== '' && !test(value) : (value) => value !== '' && test(value);
}
