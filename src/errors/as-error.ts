/** `error` as an `Error`: itself when it is one, else an `Error` with its text. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
