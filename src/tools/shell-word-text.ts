import { excerpt } from './shell-excerpt.js';
import type { ShellWord } from './shell-syntax.js';

/** Characters that end an unquoted word: seen inside one, the grammar and the shell disagree. */
const BREAKS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

/** A word being read: its value, its shape for pattern checks, why it is not fixed. */
export interface WordState {
  value: string;
  /** The value with quoted and escaped characters masked, for glob, `~` and brace checks. */
  shape: string;
  opaque: string | undefined;
  /** True when the opaque part is an expansion or substitution (not only a pattern). */
  expands: boolean;
  /** Ids of substitutions found inside. */
  subs: number[];
}

/** Removes backslash quoting of an unquoted word; `undefined` when the shell would expand it. */
export const unquote = (text: string, state: WordState): string | undefined => {
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      i += 1;
      if (next === undefined) {
        state.value += '\\';
        state.shape += 'x';
      } else if (next !== '\n') {
        state.value += next;
        state.shape += 'x';
      }
    } else if (c === '$' || c === '`') {
      return `unexpected ${c} in ${excerpt(text)}`;
    } else if (BREAKS.has(c)) {
      return `the word ${excerpt(text)} could not be read exactly`;
    } else {
      state.value += c;
      state.shape += c;
    }
  }
  return undefined;
};

/** Quote removal inside double quotes: `\` escapes only `$`, `` ` ``, `"`, `\` and newline. */
export const unquoteDouble = (text: string, state: WordState): string | undefined => {
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') state.value += next;
      i += 1;
    } else if (c === '$' || c === '`') {
      return `unexpected ${c} in "${excerpt(text)}"`;
    } else {
      state.value += c;
    }
  }
  state.shape += 'x';
  return undefined;
};

/** Why a word's unquoted shape expands (glob, `~`, braces), or undefined. */
export const patternReason = (shape: string, source: string): string | undefined => {
  if (shape.startsWith('~')) return `tilde expansion ${excerpt(source)}`;
  let open = -1;
  let list = false;
  for (let i = 0; i < shape.length; i += 1) {
    const c = shape[i];
    if (c === '*' || c === '?' || c === '[') return `pathname expansion (glob) ${excerpt(source)}`;
    if (c === '{') {
      open = i;
      list = false;
    } else if (open >= 0 && (c === ',' || (c === '.' && shape[i + 1] === '.'))) {
      list = true;
    } else if (c === '}' && open >= 0 && list) {
      return `brace expansion ${excerpt(source)}`;
    }
  }
  return undefined;
};

/** Two halves of a word the shell joins at a backslash-newline. */
export const joinWords = (first: ShellWord, gap: string, second: ShellWord): ShellWord => {
  const source = `${first.source}${gap}${second.source}`;
  const substitutions = [...(first.substitutions ?? []), ...(second.substitutions ?? [])];
  const subs = substitutions.length === 0 ? {} : { substitutions };
  if (first.value === undefined || second.value === undefined) {
    return { source, opaque: first.opaque ?? second.opaque ?? excerpt(source), ...subs };
  }
  const value = `${first.value}${second.value}`;
  // Quoting of the halves is not kept: judge the joined text as if it were all unquoted.
  const reason = patternReason(value, source);
  return reason === undefined ? { source, value } : { source, opaque: reason };
};

/** The text of an expanding here-document with its escapes removed; undefined if it expands. */
export const unquoteHeredoc = (source: string): string | undefined => {
  let value = '';
  for (let i = 0; i < source.length; i += 1) {
    const c = source[i] as string;
    const next = source[i + 1];
    if (c === '\\' && next !== undefined && '$`\\\n'.includes(next)) {
      if (next !== '\n') value += next;
      i += 1;
    } else if (c === '$' || c === '`') {
      return undefined;
    } else {
      value += c;
    }
  }
  return value;
};
