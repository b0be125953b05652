/** A signal that aborts when the first of several does, and what stops it following them. */
export interface AnySignal {
  /** Aborts, with the reason of the first of the signals that aborts, when any of them does. */
  readonly signal: AbortSignal;
  /**
   * Stops following the signals: call it once the combined signal is no longer needed, so
   * that a long-lived signal (a gateway's, a batch's) keeps no listener of a finished wait.
   * Safe to call more than once.
   */
  dispose(): void;
}

const noop = (): void => {};

/**
 * {@link anySignal} with listeners, for a Node without `AbortSignal.any` (it came in Node
 * 20.3; the package runs on any Node 20): one listener on each signal, all removed when the
 * first of them aborts or on `dispose`.
 */
export function anySignalByListeners(signals: readonly AbortSignal[]): AnySignal {
  const controller = new AbortController();
  const first = signals.find((signal) => signal.aborted);
  if (first !== undefined) {
    controller.abort(first.reason);
    return { signal: controller.signal, dispose: noop };
  }
  const listeners = signals.map((signal) => {
    const onAbort = (): void => {
      dispose();
      controller.abort(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return { signal, onAbort };
  });
  let disposed = false;
  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    for (const { signal, onAbort } of listeners) signal.removeEventListener('abort', onAbort);
  };
  return { signal: controller.signal, dispose };
}

/**
 * A signal that aborts when any of `signals` does, with that signal's reason (at once when
 * one already has): `AbortSignal.any` where this Node has it, else
 * {@link anySignalByListeners}. The one way the code combines signals (a call's and a
 * timeout, a start's and a failure).
 */
export function anySignal(signals: readonly AbortSignal[]): AnySignal {
  // Looked up at call time: Node 20.0 to 20.2 lack it.
  if (typeof AbortSignal.any === 'function') {
    // Node's combined signal holds its sources weakly: nothing to remove.
    return { signal: AbortSignal.any([...signals]), dispose: noop };
  }
  return anySignalByListeners(signals);
}
