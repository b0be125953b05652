/**
 * Keeps the start and the end of a byte stream within a budget and counts what falls out
 * in the middle: command output whose head says what ran and whose tail says how it ended.
 */
export class OutputCapture {
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #total = 0;
  readonly #headLimit: number;
  readonly #tailLimit: number;

  /** @param maxBytes Bytes kept in all: a fifth from the start, the rest from the end. */
  constructor(maxBytes: number) {
    this.#headLimit = Math.floor(maxBytes / 5);
    this.#tailLimit = maxBytes - this.#headLimit;
  }

  /** Adds a chunk of output. */
  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const head = rest.subarray(0, this.#headLimit - this.#headBytes);
      this.#head.push(head);
      this.#headBytes += head.length;
      rest = rest.subarray(head.length);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (
      this.#tail.length > 1 &&
      this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#tailLimit
    ) {
      this.#tailBytes -= this.#tail.shift()?.length ?? 0;
    }
  }

  /** Bytes received in all. */
  get totalBytes(): number {
    return this.#total;
  }

  /** The text kept, with a note where the middle was cut. */
  text(): string {
    const head = Buffer.concat(this.#head);
    let tail = Buffer.concat(this.#tail);
    if (tail.length > this.#tailLimit) tail = tail.subarray(tail.length - this.#tailLimit);
    const cut = this.#total - head.length - tail.length;
    if (cut <= 0) return Buffer.concat([head, tail]).toString('utf8');
    return `${head.toString('utf8')}\n[... ${cut} bytes cut from the middle of ${this.#total} ...]\n${tail.toString('utf8')}`;
  }
}
