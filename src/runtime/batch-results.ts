import type { CallResult } from '../tool/index.js';
import type { ResultSink } from './pipeline-entry.js';

/**
 * The results of one batch's calls, gathered by slot: one promise for the batch, settled
 * once every call gave its result, instead of one per call.
 */
export class BatchResults implements ResultSink {
  readonly #results: CallResult[];
  #left: number;
  #resolve: ((results: CallResult[]) => void) | undefined;
  /** Every call's result, in slot order, once all are in. */
  readonly all: Promise<CallResult[]>;

  /** `size`: the number of calls, one slot each (0 to `size - 1`). */
  constructor(size: number) {
    this.#results = new Array<CallResult>(size);
    this.#left = size;
    this.all =
      size === 0
        ? Promise.resolve(this.#results)
        : new Promise<CallResult[]>((resolve) => {
            this.#resolve = resolve;
          });
  }

  /** Takes the result of the call in `slot`; a slot's second result is ignored. */
  put(slot: number, result: CallResult): void {
    if (this.#results[slot] !== undefined) return;
    this.#results[slot] = result;
    this.#left -= 1;
    if (this.#left === 0) this.#resolve?.(this.#results);
  }
}
