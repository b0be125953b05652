import type { McpServerConnection, McpServerNotification } from '../mcp/index.js';

/** One reached upstream server. */
export interface Upstream {
  /** The server's name in the configuration. */
  readonly name: string;
  readonly connection: McpServerConnection;
}

/**
 * The upstream servers reached so far, in configuration order (the order that decides
 * which server wins when two offer the same resource), and their notifications.
 */
export class GatewayUpstreams {
  /** Connections by server name; a server not reached yet is absent. */
  readonly connections = new Map<string, McpServerConnection>();
  readonly #order: readonly string[];
  readonly #notified = new Set<(server: string, notification: McpServerNotification) => void>();
  readonly #readied = new Set<(server: string) => void>();

  /** @param order the server names in configuration order. */
  constructor(order: readonly string[]) {
    this.#order = order;
  }

  /** The reached servers, in configuration order. */
  list(): Upstream[] {
    return this.#order.flatMap((name) => {
      const connection = this.connections.get(name);
      return connection === undefined ? [] : [{ name, connection }];
    });
  }

  /** Adds a reached server and follows its notifications and reconnections. */
  add(name: string, connection: McpServerConnection): void {
    this.connections.set(name, connection);
    connection.on('notification', (notification) => {
      for (const listener of [...this.#notified]) listener(name, notification);
    });
    connection.on('status', (event) => {
      if (event.status === 'ready' && event.previous === 'reconnecting') this.#ready(name);
    });
    this.#ready(name);
  }

  /** Calls `listener` with each notification of any server; returns a function that unsubscribes. */
  onNotification(
    listener: (server: string, notification: McpServerNotification) => void,
  ): () => void {
    this.#notified.add(listener);
    return () => {
      this.#notified.delete(listener);
    };
  }

  /**
   * Calls `listener` when a server is reached, first or again after it was lost: its
   * lists may differ from before, and it knows nothing of earlier subscriptions or levels.
   */
  onReady(listener: (server: string) => void): () => void {
    this.#readied.add(listener);
    return () => {
      this.#readied.delete(listener);
    };
  }

  #ready(name: string): void {
    for (const listener of [...this.#readied]) listener(name);
  }
}
