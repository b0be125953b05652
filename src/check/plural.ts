/** `count` with `word`, plural unless the count is 1: `1 tool`, `3 tools`. */
export const plural = (count: number, word: string): string =>
  `${count} ${word}${count === 1 ? '' : 's'}`;
