/** The message of anything thrown. */
export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Several problems on several lines become one line. */
export const oneLine = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ');
