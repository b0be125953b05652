/**
 * Gathers the `ask`s of one turn into groups, so that a person judges the calls that
 * arrived together at once (a batch's approvals, or calls a model streamed in one go). A
 * group is put to the approver once no call that arrived is still being prepared or
 * decided, and the current turn of the event loop is over (`setImmediate`), so calls handed
 * over one after another in that time join it. An ask that comes later starts the next
 * group.
 */
export class AskGatherer<T> {
  readonly #flush: (asks: T[]) => void;
  #deciding = 0;
  #asks: T[] = [];
  #scheduled = false;

  /** `flush` receives each group, in the order its asks came. */
  constructor(flush: (asks: T[]) => void) {
    this.#flush = flush;
  }

  /** A call arrived: its decision is still to come. */
  arrived(): void {
    this.#deciding += 1;
  }

  /** The decision of a call that arrived is known; give `ask` when the call asks. */
  decided(ask?: T): void {
    this.#deciding -= 1;
    if (ask !== undefined) this.#asks.push(ask);
    if (this.#deciding === 0 && this.#asks.length > 0) this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      // A call that arrived meanwhile is still being decided: its decision flushes.
      if (this.#deciding > 0 || this.#asks.length === 0) return;
      const asks = this.#asks;
      this.#asks = [];
      this.#flush(asks);
    });
  }
}
