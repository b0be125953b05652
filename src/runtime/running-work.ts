import { HintgateError } from '../errors/index.js';
import type { AbortScope } from '../schedule/index.js';
import { MAX_TIMER_MS } from '../tool/index.js';

/**
 * The calls and batches of a runtime under way, each with the scope that cancels it, so
 * that closing the runtime can wait for them (a grace period), then cancel what is left.
 */
export class RunningWork {
  readonly #running = new Map<Promise<unknown>, AbortScope>();

  /** How many calls and batches are under way. */
  get size(): number {
    return this.#running.size;
  }

  /** Tracks `work` until it settles; `scope` cancels it. */
  track(work: Promise<unknown>, scope: AbortScope): void {
    this.#running.set(work, scope);
    const done = (): void => {
      this.#running.delete(work);
    };
    work.then(done, done);
  }

  /** Tracks `work`; the caller calls {@link RunningWork.untrack} when it settles. */
  add(work: Promise<unknown>, scope: AbortScope): void {
    this.#running.set(work, scope);
  }

  /** Stops tracking `work` (see {@link RunningWork.add}). */
  untrack(work: Promise<unknown>): void {
    this.#running.delete(work);
  }

  /**
   * Waits up to `graceMs` for the work under way to settle, then cancels what is left with
   * a `runtime_closed` reason and waits for it to settle.
   */
  async drain(graceMs: number): Promise<void> {
    const settled = (): Promise<unknown> => Promise.allSettled([...this.#running.keys()]);
    if (this.#running.size > 0 && graceMs > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        settled(),
        new Promise((resolveGrace) => {
          timer = setTimeout(resolveGrace, Math.min(graceMs, MAX_TIMER_MS));
        }),
      ]);
      clearTimeout(timer);
    }
    const reason = new HintgateError(
      'runtime_closed',
      'the runtime was closed while the call was under way',
    );
    for (const stop of this.#running.values()) stop.abort(reason);
    await settled();
  }
}
