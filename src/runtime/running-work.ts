import { HintgateError } from '../errors/index.js';
import type { AbortScope } from '../schedule/index.js';
import { MAX_TIMER_MS } from '../tool/index.js';

/** One piece of work under way, linked into {@link RunningWork}'s list. */
export interface TrackedWork {
  readonly work: Promise<unknown>;
  readonly scope: AbortScope;
  /** Neighbours in the list; `undefined` at its ends and once untracked. */
  previous: TrackedWork | undefined;
  next: TrackedWork | undefined;
  /** Still in the list. */
  tracked: boolean;
}

/**
 * The calls and batches of a runtime under way, each with the scope that cancels it, so
 * that closing the runtime can wait for them (a grace period), then cancel what is left.
 * A linked list, not a map: one batch at a time (the common case) would empty and refill a
 * map's table at each batch, and a map shrinks its table when it empties, which allocates.
 */
export class RunningWork {
  #first: TrackedWork | undefined;
  #last: TrackedWork | undefined;
  #size = 0;

  /** How many calls and batches are under way. */
  get size(): number {
    return this.#size;
  }

  /** Tracks `work` until it settles; `scope` cancels it. */
  track(work: Promise<unknown>, scope: AbortScope): void {
    const tracked = this.add(work, scope);
    const done = (): void => this.untrack(tracked);
    work.then(done, done);
  }

  /** Tracks `work`; the caller calls {@link RunningWork.untrack} with the answer when it settles. */
  add(work: Promise<unknown>, scope: AbortScope): TrackedWork {
    const tracked: TrackedWork = {
      work,
      scope,
      previous: this.#last,
      next: undefined,
      tracked: true,
    };
    if (this.#last === undefined) this.#first = tracked;
    else this.#last.next = tracked;
    this.#last = tracked;
    this.#size += 1;
    return tracked;
  }

  /** Stops tracking work (see {@link RunningWork.add}); does nothing the second time. */
  untrack(tracked: TrackedWork): void {
    if (!tracked.tracked) return;
    tracked.tracked = false;
    const { previous, next } = tracked;
    if (previous === undefined) this.#first = next;
    else previous.next = next;
    if (next === undefined) this.#last = previous;
    else next.previous = previous;
    tracked.previous = undefined;
    tracked.next = undefined;
    this.#size -= 1;
  }

  /** What is under way, in the order it was tracked. */
  #list(): TrackedWork[] {
    const list: TrackedWork[] = [];
    for (let item = this.#first; item !== undefined; item = item.next) list.push(item);
    return list;
  }

  /**
   * Waits up to `graceMs` for the work under way to settle, then cancels what is left with
   * a `runtime_closed` reason and waits for it to settle.
   */
  async drain(graceMs: number): Promise<void> {
    const settled = (): Promise<unknown> =>
      Promise.allSettled(this.#list().map((item) => item.work));
    if (this.#size > 0 && graceMs > 0) {
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
    for (const { scope } of this.#list()) scope.abort(reason);
    await settled();
  }
}
