import { AsyncResource } from 'node:async_hooks';

/** A place in the arrival order: what to do there, once it is known. */
interface Place {
  run: (() => void) | undefined;
}

/**
 * Keeps admission in arrival order when preparing a call takes a while. A call's place is
 * taken when it arrives; it is admitted once it is prepared and every call that arrived
 * before it has been admitted (or dropped). Calls prepared at once, with nobody ahead of
 * them, are admitted at once: the common case costs no allocation.
 */
export class ArrivalOrder {
  #places: Place[] = [];
  #head = 0;

  /** True when no call that arrived earlier is still waiting to be admitted. */
  get idle(): boolean {
    return this.#head === this.#places.length;
  }

  /**
   * Takes a place for a call. Call the returned function with what admits the call once it
   * is prepared (or with a no-op when it will not be admitted); it runs when every earlier
   * place has run. What admits a call must not throw.
   */
  take(): (admit: () => void) => void {
    return this.#fill(this.#places.push({ run: undefined }) - 1, true);
  }

  /**
   * Takes the place `after` places from the first, ahead of the other calls still waiting
   * for their turns: for a batch that arrives in parts, to keep its calls ahead of calls
   * that arrived after the batch (taken while the batch holds its turn, in the admit of its
   * previous place: its first such place is 0, the next 1, and so on).
   */
  takeFirst(after = 0): (admit: () => void) => void {
    this.#places.splice(this.#head + after, 0, { run: undefined });
    return this.#fill(this.#head + after, false);
  }

  /**
   * What fills the place at `index`, and drains. With `bind`, the admit runs in the async
   * context it was given in (the trace and `AsyncLocalStorage` stores of its call), not in
   * that of whatever call's admission let the queue drain. A batch's own places (`takeFirst`)
   * are filled and drained in the batch's context: binding them would cost each call of a
   * part that arrives there (measured: about a third more per call of a batch of 1,000).
   */
  #fill(index: number, bind: boolean): (admit: () => void) => void {
    const place = this.#places[index] as Place;
    return (admit) => {
      place.run = bind ? AsyncResource.bind(admit) : admit;
      this.#drain();
    };
  }

  // An admit that runs here may fill another place and drain in turn: read the fields anew.
  #drain(): void {
    while (this.#head < this.#places.length) {
      const { run } = this.#places[this.#head] as Place;
      if (run === undefined) return;
      this.#head += 1;
      run();
    }
    this.#places = [];
    this.#head = 0;
  }
}
