import type {
  Client,
  Implementation,
  LoggingMessageNotificationParams,
  Tool as McpTool,
  ProtocolEra,
  ResourceUpdatedNotificationParams,
  ServerCapabilities,
} from '@modelcontextprotocol/client';
import type { McpToolProblem } from './remote-tool.js';
import type { UpstreamRateLimit } from './upstream-rate-window.js';

/**
 * State of a connection to an MCP server: `connecting` until the first connection is up,
 * `ready` while connected, `reconnecting` while it is lost and being re-established (calls
 * fail fast with `upstream_unavailable`), `closed` after `close()` or giving up.
 */
export type McpConnectionStatus = 'connecting' | 'ready' | 'reconnecting' | 'closed';

/** A change of {@link McpConnectionStatus}. */
export interface McpStatusEvent {
  /** The new status. */
  readonly status: McpConnectionStatus;
  /** The status before. */
  readonly previous: McpConnectionStatus;
  /** Why the connection was lost, or why the last reconnect attempt failed. */
  readonly error?: Error;
  /** With `reconnecting`: milliseconds until the next attempt. */
  readonly retryInMs?: number;
  /** With `reconnecting`: the number of that next attempt (1 for the first). */
  readonly attempt?: number;
}

/** The server's tool list was read again and differs from before. */
export interface McpToolsEvent {
  /** The tool definitions as the server lists them now. */
  readonly tools: readonly McpTool[];
  /** Tools not registered, or registered with a concession, and why. */
  readonly problems: readonly McpToolProblem[];
}

/**
 * A notification of the server besides its tool list, as it arrived: its resource or
 * prompt list changed, a resource it was asked about changed, or a log message.
 */
export type McpServerNotification =
  | { readonly method: 'notifications/resources/list_changed' }
  | { readonly method: 'notifications/prompts/list_changed' }
  | {
      readonly method: 'notifications/resources/updated';
      readonly params: ResourceUpdatedNotificationParams;
    }
  | {
      readonly method: 'notifications/message';
      readonly params: LoggingMessageNotificationParams;
    };

/** Events of {@link McpServerConnection} and what their listeners receive. */
export interface McpConnectionEvents {
  /**
   * The connection status changed, or a reconnect attempt failed (then `status` and
   * `previous` are both `reconnecting`, with the error and the next attempt).
   */
  readonly status: McpStatusEvent;
  /** The tool list changed (after `notifications/tools/list_changed` or a reconnect) and was applied. */
  readonly change: McpToolsEvent;
  /**
   * Something failed in the background without changing the status: reading the list again
   * after `list_changed`, or the registry refusing the new list (a name taken in the layer).
   * The previous tools stay registered.
   */
  readonly error: Error;
  /** The server sent one of the notifications of {@link McpServerNotification}. */
  readonly notification: McpServerNotification;
  /**
   * The server said it is rate limited: an HTTP `429 Too Many Requests` answer (with what
   * its `Retry-After` asks), or a tool error that says so. Its calls wait until `until`.
   */
  readonly rateLimited: UpstreamRateLimit;
}

/** A live connection to one MCP server whose tools are registered as one origin. */
export interface McpServerConnection {
  /** Origin name of the server's tools in the registry. */
  readonly origin: string;
  /** The tool definitions as the server listed them last (frozen). */
  readonly tools: readonly McpTool[];
  /** Tools of that list not registered, or registered with a concession, and why. */
  readonly problems: readonly McpToolProblem[];
  /** Current state of the connection. */
  readonly status: McpConnectionStatus;
  /**
   * Why the connection is down while it is (the loss, or the last failed attempt, such as
   * a first connection that failed under `firstConnection: 'retry'`); `undefined` while it
   * is up.
   */
  readonly lastError: Error | undefined;
  /** Name and version the server reported, once connected. */
  readonly serverInfo: Implementation | undefined;
  /** Protocol era negotiated with the server: `legacy` (2025) or `modern` (2026-07-28). */
  readonly protocolEra: ProtocolEra | undefined;
  /** Capabilities the server declared on the current connection; `undefined` while it is down. */
  readonly capabilities: ServerCapabilities | undefined;
  /**
   * Sends requests other than tool calls (resources, prompts, logging) on the current
   * connection: `send` gets the connected SDK client. Rejects with
   * {@link UpstreamUnavailableError} while the server is down, and when the connection is
   * lost during the request (which starts a reconnect); the server's own errors
   * (`ProtocolError`, with its JSON-RPC code) come back as they are.
   */
  request<T>(what: string, send: (client: Client) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` on each event of that type; returns a function that unsubscribes. A
   * listener that throws does not disturb the connection (the error is rethrown later).
   */
  on<E extends keyof McpConnectionEvents>(
    event: E,
    listener: (payload: McpConnectionEvents[E]) => void,
  ): () => void;
  /**
   * Stops reconnecting, closes the connection (the server process is stopped) and removes
   * the origin's tools from the registry. Calls still running end `upstream_unavailable`.
   */
  close(): Promise<void>;
}
