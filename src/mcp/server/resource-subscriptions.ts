import type { McpResourceSource, McpSourceRequest } from './mcp-server-sources.js';

interface Entry<S> {
  readonly subscribers: Set<S>;
  /** Settles once the source watches the URI; rejects when it refused. */
  readonly watching: Promise<void>;
}

/**
 * Which clients are subscribed to which resource URIs, so that a source watches a URI
 * once however many clients want it: it is asked to subscribe when the first client
 * subscribes and to unsubscribe when the last one unsubscribes or disconnects.
 */
export class ResourceSubscriptions<S> {
  readonly #source: McpResourceSource;
  readonly #report: (error: unknown) => void;
  readonly #entries = new Map<string, Entry<S>>();
  /** Unsubscriptions under way, which a new subscription to the URI waits for. */
  readonly #stopping = new Map<string, Promise<void>>();

  constructor(source: McpResourceSource, report: (error: unknown) => void) {
    this.#source = source;
    this.#report = report;
  }

  /**
   * Subscribes `subscriber` to `uri`. Rejects, leaving nothing subscribed, when the source
   * refuses the first subscription to it.
   */
  async subscribe(subscriber: S, uri: string, request: McpSourceRequest): Promise<void> {
    let entry = this.#entries.get(uri);
    if (entry === undefined) {
      const stopped = this.#stopping.get(uri) ?? Promise.resolve();
      entry = {
        subscribers: new Set(),
        watching: stopped.then(() => this.#source.subscribe(uri, request)),
      };
      this.#entries.set(uri, entry);
    }
    // Counted at once, so that a client that leaves while the source subscribes is let go.
    entry.subscribers.add(subscriber);
    try {
      await entry.watching;
    } catch (error) {
      entry.subscribers.delete(subscriber);
      if (this.#entries.get(uri) === entry) this.#entries.delete(uri);
      throw error;
    }
  }

  /** Unsubscribes `subscriber` from `uri`; nothing happens when it was not subscribed. */
  async unsubscribe(subscriber: S, uri: string): Promise<void> {
    const entry = this.#entries.get(uri);
    if (entry === undefined || !entry.subscribers.delete(subscriber)) return;
    if (entry.subscribers.size > 0) return;
    this.#entries.delete(uri);
    const stopping = entry.watching.then(
      () => this.#source.unsubscribe(uri),
      () => {},
    );
    this.#stopping.set(uri, stopping);
    try {
      await stopping;
    } finally {
      if (this.#stopping.get(uri) === stopping) this.#stopping.delete(uri);
    }
  }

  /** Unsubscribes `subscriber` from everything (it disconnected); failures are reported. */
  drop(subscriber: S): void {
    for (const [uri, entry] of this.#entries) {
      if (entry.subscribers.has(subscriber)) {
        this.unsubscribe(subscriber, uri).catch(this.#report);
      }
    }
  }

  /** The subscribers of `uri`. */
  subscribers(uri: string): readonly S[] {
    return [...(this.#entries.get(uri)?.subscribers ?? [])];
  }
}
