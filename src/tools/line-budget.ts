/**
 * Collects output lines up to a number of lines and of characters, and counts what did not
 * fit, so that a tool can say how much it left out.
 */
export class LineBudget {
  /** The lines kept. */
  readonly lines: string[] = [];
  /** Lines offered after the budget was spent. */
  omitted = 0;
  #chars = 0;

  /**
   * @param maxLines Lines kept at most.
   * @param maxChars Characters kept at most (newlines included); the first line is always kept.
   */
  constructor(
    readonly maxLines: number,
    readonly maxChars: number,
  ) {}

  /** Keeps `line` if it fits; returns false (and counts it) when it does not. */
  add(line: string): boolean {
    if (
      this.omitted > 0 ||
      this.lines.length >= this.maxLines ||
      (this.lines.length > 0 && this.#chars + line.length + 1 > this.maxChars)
    ) {
      this.omitted += 1;
      return false;
    }
    this.lines.push(line);
    this.#chars += line.length + 1;
    return true;
  }
}
