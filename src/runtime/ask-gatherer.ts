/**
 * Gathers the `ask`s of one turn into groups, so that a person judges the calls that
 * arrived together at once (a batch's approvals, or calls a model streamed in one go). A
 * group is put to the approver once no call that arrived is still being prepared or
 * decided, and `defer` has let the current turn of the event loop end (the runtime uses a
 * 0 ms timer of its clock), so calls handed over one after another in that time join it.
 * An ask that comes later starts the next group.
 */
export class AskGatherer<T> {
  readonly #flush: (asks: T[]) => void;
  readonly #defer: (run: () => void) => void;
  #deciding = 0;
  #asks: T[] = [];
  #scheduled = false;

  /**
   * `flush` receives each group, in the order its asks came; `defer` runs its callback
   * once the current turn of the event loop is over. `deciding`: calls that arrived before
   * the gatherer was made and are not decided yet (default 0).
   */
  constructor(flush: (asks: T[]) => void, defer: (run: () => void) => void, deciding = 0) {
    this.#flush = flush;
    this.#defer = defer;
    this.#deciding = deciding;
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
    this.#defer(() => {
      this.#scheduled = false;
      // A call that arrived meanwhile is still being decided: its decision flushes.
      if (this.#deciding > 0 || this.#asks.length === 0) return;
      const asks = this.#asks;
      this.#asks = [];
      this.#flush(asks);
    });
  }
}
