import { AsyncResource } from 'node:async_hooks';
import type { CallResult } from '../tool/index.js';

/**
 * The results of one `execute` batch, put in call order as the calls end, in any order;
 * settles with `end` of them once every call has one. A call that waits for its grant
 * puts its result here when it ends, so that it costs no promise while it waits (a batch of
 * many waiting calls keeps less alive meanwhile). A waiting call runs in the async context
 * its batch arrived in ({@link BatchResults.runInBatch}), as it would behind a promise made
 * there, whatever call's end let it go: one async resource for the batch, not one per call.
 */
export class BatchResults<R> {
  /** Settles with `end` of the results, or with what `fail` threw. */
  readonly promise: Promise<R>;
  readonly #results: CallResult[];
  #left: number;
  #done = false;
  readonly #end: (results: CallResult[]) => R | Promise<R>;
  readonly #fail: (error: unknown) => never;
  readonly #onPut: (() => void) | undefined;
  #resolve: ((value: R | Promise<R>) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  /** The async context the batch arrived in (its trace, its `AsyncLocalStorage` stores). */
  readonly #scope = new AsyncResource('hintgate.execute');

  /**
   * @param size - calls of the batch, each to put one result.
   * @param end - makes the batch's outcome of the results, in call order.
   * @param fail - takes what a bug of ours threw, and throws.
   * @param onPut - told after each result put but the last (a batch arriving in parts goes
   *   on as its calls end).
   */
  constructor(
    size: number,
    end: (results: CallResult[]) => R | Promise<R>,
    fail: (error: unknown) => never,
    onPut?: () => void,
  ) {
    this.#results = new Array<CallResult>(size);
    this.#left = size;
    this.#end = end;
    this.#fail = fail;
    this.#onPut = onPut;
    this.promise = new Promise<R>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Calls `run(first, second)` with `self` as `this`, in the batch's async context. */
  runInBatch<T, A, B>(
    run: (this: T, first: A, second: B) => void,
    self: T,
    first: A,
    second: B,
  ): void {
    this.#scope.runInAsyncScope(run, self, first, second);
  }

  /** Puts the result of the call at `index`. */
  put(index: number, result: CallResult): void {
    this.#results[index] = result;
    this.#left -= 1;
    if (this.#left > 0) {
      this.#onPut?.();
      return;
    }
    if (this.#done) return;
    this.#done = true;
    try {
      this.#resolve?.(this.#end(this.#results));
    } catch (error) {
      this.#reject?.(error);
    }
  }

  /** Puts the result of the call at `index` once `result` settles. */
  follow(index: number, result: Promise<CallResult>): void {
    result.then((settled) => this.put(index, settled), this.fail);
  }

  /** A bug of ours: the batch rejects with what `fail` throws. */
  readonly fail = (error: unknown): void => {
    if (this.#done) return;
    this.#done = true;
    try {
      this.#fail(error);
    } catch (thrown) {
      this.#reject?.(thrown);
    }
  };
}
