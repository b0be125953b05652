/** Where a JSON text first breaks the grammar, and why. */
export interface JsonError {
  /** UTF-16 offset of the offending character (the text's length at an early end). */
  readonly offset: number;
  /** What is wrong, in words, without a trailing period. */
  readonly reason: string;
}

type State = 'value' | 'firstValue' | 'key' | 'firstKey' | 'after';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);

/**
 * Finds the first syntax error of a JSON text, or `undefined` when it is valid JSON. Used
 * to give a line and column for `JSON.parse` failures, whose messages differ between
 * Node versions and do not always carry a position. Iterative, so deep nesting is safe.
 */
export function findJsonError(text: string): JsonError | undefined {
  const stack: ('{' | '[')[] = [];
  let state: State = 'value';
  let i = 0;
  for (;;) {
    i = skipWhitespace(text, i);
    const char = text.charAt(i);
    const top = stack.at(-1);
    if (state === 'after') {
      if (top === undefined) {
        return i === text.length
          ? undefined
          : { offset: i, reason: `unexpected ${show(char)} after the end of the JSON value` };
      }
      const close = top === '{' ? '}' : ']';
      if (char === ',') {
        state = top === '{' ? 'key' : 'value';
      } else if (char === close) {
        stack.pop();
      } else {
        return { offset: i, reason: `expected "," or "${close}" but found ${show(char)}` };
      }
      i += 1;
      continue;
    }
    if (state === 'key' || state === 'firstKey') {
      if (char === '}' && state === 'firstKey') {
        stack.pop();
        state = 'after';
        i += 1;
        continue;
      }
      if (char !== '"') {
        return { offset: i, reason: `expected a key in double quotes but found ${show(char)}` };
      }
      const end = skipString(text, i);
      if (typeof end !== 'number') return end;
      i = skipWhitespace(text, end);
      if (text.charAt(i) !== ':') {
        return {
          offset: i,
          reason: `expected ":" after the key but found ${show(text.charAt(i))}`,
        };
      }
      state = 'value';
      i += 1;
      continue;
    }
    if (char === ']' && state === 'firstValue') {
      stack.pop();
      state = 'after';
      i += 1;
      continue;
    }
    if (char === '{' || char === '[') {
      stack.push(char);
      state = char === '{' ? 'firstKey' : 'firstValue';
      i += 1;
      continue;
    }
    state = 'after';
    if (char === '"') {
      const end = skipString(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      continue;
    }
    const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
    if (literal !== undefined) {
      i += literal.length;
      continue;
    }
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      continue;
    }
    return { offset: i, reason: `expected a value but found ${show(char)}` };
  }
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i += 1;
  return i;
}

/** Index just past the string that opens at `open`, or the error inside it. */
function skipString(text: string, open: number): number | JsonError {
  for (let i = open + 1; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (char === '"') return i + 1;
    if (char === '\\') {
      const escaped = text.charAt(i + 1);
      if (!ESCAPES.has(escaped)) {
        return { offset: i, reason: `invalid escape ${show(`\\${escaped}`)} in a string` };
      }
      if (escaped === 'u') {
        HEX4.lastIndex = i + 2;
        if (!HEX4.test(text)) return { offset: i, reason: 'a "\\u" escape needs four hex digits' };
        i += 4;
      }
      i += 1;
    } else if (char.charCodeAt(0) < 0x20) {
      return { offset: i, reason: 'a control character in a string; escape it, as in "\\n"' };
    }
  }
  return { offset: text.length, reason: 'a string is never closed; end it with a double quote' };
}

function show(char: string): string {
  return char === '' ? 'the end of the file' : JSON.stringify(char);
}
