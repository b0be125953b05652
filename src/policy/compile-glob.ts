import picomatch from 'picomatch';
import { HintgateError } from '../errors/index.js';
import { compileLinearGlob } from './compile-linear-glob.js';

/**
 * Options for tool names, origin names and approval keys rather than file paths: dots are
 * ordinary characters, `\` is an escape and never a separator (on every platform), and a
 * pattern picomatch turns into a broken regular expression throws instead of silently
 * matching nothing.
 */
const PICOMATCH_OPTIONS: picomatch.PicomatchOptions = Object.freeze({
  dot: true,
  windows: false,
  debug: true,
});

/** Compiled matchers by pattern; rules are matched on every call. */
const cache = new Map<string, (value: string) => boolean>();

/** Enough for any real policy; past it the oldest pattern is dropped. */
const CACHE_LIMIT = 1024;

/**
 * Compiles a glob for tool names, origin names and approval keys into a matcher.
 *
 * - `*` matches any run of characters except `/`, and `?` one character except `/`:
 *   `github_*` matches `github_list_issues`, `git *` matches `git status`, `*` matches any
 *   tool name.
 * - `**` also crosses `/`, wherever it stands: `file:src/**` matches `file:src/a/b.ts`, and
 *   `file:**` matches `file:src/a.ts` (picomatch alone would read a `**` that is not a whole
 *   path segment as `*`).
 * - `{a,b}` alternatives, `[abc]` classes, `\` escapes and a leading `!` negation, as in
 *   picomatch.
 * - A dot is an ordinary character: `*` matches `.env`.
 *
 * Matching takes time linear in the value's length ({@link compileLinearGlob}): values are
 * approval keys and tool names, which come from a model or a server and may be megabytes
 * long. Matchers are cached by pattern.
 *
 * @throws HintgateError `invalid_policy` when {@link checkGlob} finds the pattern invalid.
 */
export function compileGlob(
  pattern: string,
  options: CompileGlobOptions = {},
): (value: string) => boolean {
  const wide = options.starCrossesSlash === true;
  const cacheKey = `${wide ? 'w' : 'n'}${pattern}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;
  const problem = checkGlob(pattern);
  if (problem !== undefined) {
    throw new HintgateError('invalid_policy', `Glob ${JSON.stringify(pattern)}: ${problem}.`);
  }
  const matcher = compileLinearGlob(pattern, { partialGlobstar: 'any', starCrossesSlash: wide });
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(cacheKey, matcher);
  return matcher;
}

/**
 * The literal part of a glob before its first wildcard, at a `/` boundary: `file:secrets`
 * for `file:secrets/**`, `''` for `*.pem`.
 */
export function globBase(pattern: string): string {
  return picomatch.scan(pattern, PICOMATCH_OPTIONS).base;
}

/** Options of {@link compileGlob}. */
export interface CompileGlobOptions {
  /**
   * Let a single `*` match across `/` too, as a shell `case` pattern does: `git push*`
   * then matches `git push origin feat/x`. Deny and ask rules use it, so that a `/` in a
   * key cannot slip past them. Default false.
   */
  readonly starCrossesSlash?: boolean;
}

/**
 * Rewrites each run of unescaped `*` outside `[...]`: `replace` gets the run's start and
 * end index and returns its new text. Escapes and classes are copied as they are.
 */
function rewriteStarRuns(pattern: string, replace: (start: number, end: number) => string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern.charAt(i);
    if (char === '\\') {
      out += pattern.slice(i, i + 2);
      i += 2;
      continue;
    }
    const end = char === '[' ? classEnd(pattern, i) : undefined;
    if (end !== undefined) {
      out += pattern.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (char === '*') {
      let stars = i;
      while (pattern.charAt(stars) === '*') stars += 1;
      out += replace(i, stars);
      i = stars;
      continue;
    }
    out += char;
    i += 1;
  }
  return out;
}

/**
 * Says what is wrong with a glob, or `undefined` when it is fine: not a string, empty,
 * an unbalanced `[`, `]`, `{` or `}`, a lone trailing `\`, or a pattern picomatch cannot
 * compile. The message has no trailing period so that it can be embedded in a sentence.
 */
export function checkGlob(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') {
    return `a glob must be a string such as "github_*", not ${kindOf(pattern)}`;
  }
  if (pattern === '') return 'a glob must not be empty; use "*" to match anything';
  const unbalanced = findUnbalanced(pattern);
  if (unbalanced !== undefined) return unbalanced;
  try {
    // picomatch's parser is the reference for what a glob may say; the matcher is ours.
    picomatch.makeRe(widenGlobstars(pattern), PICOMATCH_OPTIONS);
    compileLinearGlob(pattern, { partialGlobstar: 'any' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `picomatch cannot compile it (${reason})`;
  }
  return undefined;
}

/**
 * Rewrites every `**` that is not a whole path segment (`file:**`, `a**b`) into
 * alternatives picomatch reads as "anything, `/` included", leaving escaped stars and
 * stars inside `[...]` alone.
 */
function widenGlobstars(pattern: string): string {
  return rewriteStarRuns(pattern, (start, end) => {
    const run = pattern.slice(start, end);
    if (run.length < 2) return run;
    const before = pattern.slice(0, start);
    const startsSegment = /^!*$/.test(before) || before.endsWith('/');
    const endsSegment = end === pattern.length || pattern.charAt(end) === '/';
    if (startsSegment && endsSegment) return '**';
    return `{*,${startsSegment ? '' : '*/'}**${endsSegment ? '' : '/*'}}`;
  });
}

/** Index of the `]` closing the class opened at `open`, or `undefined` when none does. */
function classEnd(pattern: string, open: number): number | undefined {
  let i = open + 1;
  if (pattern.charAt(i) === '!' || pattern.charAt(i) === '^') i += 1;
  // A `]` right after `[`, `[!` or `[^` is a member of the class, not its end.
  if (pattern.charAt(i) === ']') i += 1;
  for (; i < pattern.length; i += 1) {
    const char = pattern.charAt(i);
    if (char === '\\') i += 1;
    else if (char === ']') return i;
  }
  return undefined;
}

function findUnbalanced(pattern: string): string | undefined {
  const braces: number[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern.charAt(i);
    const at = `at character ${i + 1}`;
    if (char === '\\') {
      if (i === pattern.length - 1) {
        return `it ends with a lone "\\" ${at}; escape a backslash as "\\\\"`;
      }
      i += 1;
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      if (end === undefined) {
        return `the "[" ${at} is never closed; close it with "]" or escape it as "\\["`;
      }
      i = end;
    } else if (char === ']') {
      return `the "]" ${at} has no "[" before it; remove it or escape it as "\\]"`;
    } else if (char === '{') {
      braces.push(i);
    } else if (char === '}') {
      if (braces.pop() === undefined) {
        return `the "}" ${at} has no "{" before it; remove it or escape it as "\\}"`;
      }
    }
  }
  const open = braces.pop();
  if (open !== undefined) {
    return `the "{" at character ${open + 1} is never closed; close it with "}" or escape it as "\\{"`;
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}
