import type { Clock } from '../schedule/index.js';
import { AbortListeners, type AbortWatch } from '../schedule/index.js';

/** What a call's abort scope resolves to when it aborts first. */
export const ABORTED = Symbol('aborted');

/**
 * The abort scope of one call: its deadline and the batch's signal. Cheap for tools that
 * finish synchronously: the timer and the batch listener are only made when a tool asks for
 * its signal, listens or goes asynchronous, and the `AbortController` only when a tool asks
 * for its signal. It is an {@link AbortWatch} itself, for the package's own tools.
 */
export class CallAbort implements AbortWatch {
  readonly #clock: Clock;
  readonly #batch: AbortWatch | undefined;
  readonly #deadline: number;
  readonly #timeoutMs: number;
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;
  #armed = false;
  #timer: unknown;
  #waiters: Array<(value: typeof ABORTED) => void> | undefined;
  #listeners: AbortListeners | undefined;

  constructor(options: {
    clock: Clock;
    batch: AbortWatch | undefined;
    timeoutMs: number;
    /** When the call started, on the clock: the deadline is `timeoutMs` later. Default: now. */
    startedAt?: number;
  }) {
    this.#clock = options.clock;
    this.#batch = options.batch;
    this.#timeoutMs = options.timeoutMs;
    this.#deadline = (options.startedAt ?? options.clock.now()) + options.timeoutMs;
    if (options.batch?.aborted) this.#abort(options.batch.reason);
  }

  /** True once the deadline passed or the batch was cancelled. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it aborted: a `TimeoutError` DOMException, or the batch signal's reason. */
  get reason(): unknown {
    return this.#reason;
  }

  /** True when it aborted because the deadline passed. */
  get timedOut(): boolean {
    return this.#reason instanceof DOMException && this.#reason.name === 'TimeoutError';
  }

  /** Milliseconds left before the deadline. */
  get remainingMs(): number {
    return this.#deadline - this.#clock.now();
  }

  /** The signal handed to the tool. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    this.arm();
    return this.#controller.signal;
  }

  /** Starts watching the deadline and the batch signal (idempotent). */
  arm(): void {
    if (this.#armed || this.#aborted) return;
    this.#armed = true;
    this.#timer = this.#clock.setTimeout(
      () => this.#abort(new DOMException(`timed out after ${this.#timeoutMs} ms`, 'TimeoutError')),
      Math.max(0, this.remainingMs),
    );
    this.#batch?.addEventListener('abort', this.#onBatchAbort, { once: true });
  }

  /** Calls `listener` once when the scope aborts (never when it already has); arms it. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#aborted) return;
    this.arm();
    this.#listeners ??= new AbortListeners();
    this.#listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners?.remove(listener);
  }

  /** Resolves to {@link ABORTED} when the scope aborts. */
  whenAborted(): Promise<typeof ABORTED> {
    this.arm();
    if (this.#aborted) return Promise.resolve(ABORTED);
    return new Promise((resolve) => {
      this.#waiters ??= [];
      this.#waiters.push(resolve);
    });
  }

  /** Stops the timer and the batch listener. */
  dispose(): void {
    if (!this.#armed) return;
    this.#clock.clearTimeout(this.#timer);
    this.#batch?.removeEventListener('abort', this.#onBatchAbort);
  }

  readonly #onBatchAbort = (): void => this.#abort(this.#batch?.reason);

  #abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const waiters = this.#waiters;
    this.#waiters = undefined;
    for (const wake of waiters ?? []) wake(ABORTED);
    this.#listeners?.fire();
  }
}
