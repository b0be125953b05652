/** Characters of a server's stderr kept for error messages. */
export const STDERR_TAIL_CHARS = 4_000;

/** The last characters a child process wrote to stderr: bounded, for error messages. */
export class StderrTail {
  #text = '';
  readonly #limit: number;

  /** Keeps at most `limit` characters (default {@link STDERR_TAIL_CHARS}). */
  constructor(limit: number = STDERR_TAIL_CHARS) {
    this.#limit = limit;
  }

  /** Adds output; drops the oldest characters past the limit. */
  append(chunk: string): void {
    this.#text = (this.#text + chunk).slice(-this.#limit);
  }

  /** What was kept, trimmed; empty when the process wrote nothing. */
  get text(): string {
    return this.#text.trim();
  }
}
