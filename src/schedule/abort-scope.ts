/**
 * What the runtime reads of a cancellation: the part of `AbortSignal` it uses. An `AbortSignal` is one; so are {@link AbortScope} and a call's abort scope,
 * which cost far less to make than an `AbortController`.
 */
export interface AbortWatch {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * Listeners of an {@link AbortWatch}, called as an `AbortSignal` calls its `abort`
 * listeners: each once, in the order added, none added twice, none added after the abort,
 * none removed by an earlier one. A listener that throws does not stop the others; its
 * error is rethrown on its own.
 */
export class AbortListeners {
  // A Set keeps insertion order, ignores a second add, and adds and removes in constant
  // time: a batch of many calls adds and removes one listener per call. Made on first add:
  // most calls' scopes never get a listener.
  #listeners: Set<() => void> | undefined;
  /** The listeners being called, while they are. */
  #firing: Set<() => void> | undefined;

  add(listener: () => void): void {
    this.#listeners ??= new Set();
    this.#listeners.add(listener);
  }

  remove(listener: () => void): void {
    this.#listeners?.delete(listener);
    // A Set's iteration skips entries deleted before they are reached.
    this.#firing?.delete(listener);
  }

  /** Calls every listener once and forgets them all. */
  fire(): void {
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    this.#listeners = undefined;
    this.#firing = listeners;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.#firing = undefined;
  }
}

const noop = (): void => {};

/**
 * A cheap `AbortController`: an {@link AbortWatch} that aborts once, with a real
 * `AbortSignal` made only when someone asks for {@link signal} (an approver, say). On abort,
 * that signal's listeners run first, then the scope's own.
 */
export class AbortScope implements AbortWatch {
  readonly #listeners = new AbortListeners();
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** An `AbortSignal` that aborts with this scope, made on first use. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.#aborted) this.#listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.remove(listener);
  }

  /**
   * Aborts this scope when `watch` aborts, with its reason (at once when it has). Returns
   * what stops following it, so a long-lived signal keeps no listener of a finished scope.
   */
  follow(watch: AbortWatch): () => void {
    if (watch.aborted) {
      this.abort(watch.reason);
      return noop;
    }
    const onAbort = (): void => this.abort(watch.reason);
    watch.addEventListener('abort', onAbort, { once: true });
    return () => watch.removeEventListener('abort', onAbort);
  }

  /** Aborts with `reason` (an `AbortError` DOMException by default); later calls do nothing. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#listeners.fire();
  }
}
