import { HintgateError } from '../../errors/index.js';
import type { McpConnectionEvents } from './connection-events.js';

type Listener<E extends keyof McpConnectionEvents> = (payload: McpConnectionEvents[E]) => void;

/**
 * Listeners of a connection's events. A listener that throws does not disturb the
 * connection or the other listeners; its error is rethrown in a microtask.
 */
export class ConnectionEmitter {
  readonly #listeners: { [E in keyof McpConnectionEvents]: Set<Listener<E>> } = {
    status: new Set(),
    change: new Set(),
    error: new Set(),
    notification: new Set(),
    rateLimited: new Set(),
  };

  /** Adds a listener; returns a function that removes it. */
  on<E extends keyof McpConnectionEvents>(event: E, listener: Listener<E>): () => void {
    const set = this.#listeners[event] as Set<Listener<E>> | undefined;
    if (set === undefined || typeof listener !== 'function') {
      throw new HintgateError(
        'invalid_option',
        `on(event, listener): event must be "status", "change" or "error" and listener a function, got ${JSON.stringify(event)}.`,
      );
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Calls the listeners of `event`, in the order they were added. */
  emit<E extends keyof McpConnectionEvents>(event: E, payload: McpConnectionEvents[E]): void {
    for (const listener of [...(this.#listeners[event] as Set<Listener<E>>)]) {
      try {
        listener(payload);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
