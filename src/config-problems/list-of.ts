/** `"a", "b" or "c"`: quoted words joined for a message. */
export function listOf(words: readonly string[], conjunction: 'and' | 'or'): string {
  const quoted = words.map((word) => `"${word}"`);
  return quoted.length < 2
    ? quoted.join('')
    : `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted.at(-1)}`;
}
