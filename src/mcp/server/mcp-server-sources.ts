import type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  ReadResourceRequestParams,
  ReadResourceResult,
  ResourceUpdatedNotificationParams,
} from '@modelcontextprotocol/server';

/** What a request to a source may be cancelled by: the client's request signal. */
export interface McpSourceRequest {
  /** Aborts when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
}

/** News from a {@link McpResourceSource}. */
export type McpResourceEvent =
  | { readonly kind: 'list_changed' }
  | { readonly kind: 'updated'; readonly params: ResourceUpdatedNotificationParams };

/**
 * Resources a tool server serves besides its tools (the gateway: its upstream servers').
 * Errors thrown with a numeric `code` (an SDK `ProtocolError`) reach the client as that
 * JSON-RPC error; anything else as an internal error with its message.
 */
export interface McpResourceSource {
  /** Every resource, in a stable order, in one page. */
  list(request: McpSourceRequest): Promise<ListResourcesResult>;
  /** Every resource template, in a stable order, in one page. */
  listTemplates(request: McpSourceRequest): Promise<ListResourceTemplatesResult>;
  /** Reads one resource. */
  read(params: ReadResourceRequestParams, request: McpSourceRequest): Promise<ReadResourceResult>;
  /**
   * Starts watching `uri`: from now on its updates arrive as `updated` events. The tool
   * server calls it when the first client subscribes to `uri`, and
   * {@link McpResourceSource.unsubscribe} when the last one stops.
   */
  subscribe(uri: string, request: McpSourceRequest): Promise<void>;
  /** Stops watching `uri`. */
  unsubscribe(uri: string): Promise<void>;
  /** Calls `listener` with each event; returns a function that unsubscribes. */
  onEvent(listener: (event: McpResourceEvent) => void): () => void;
  /**
   * Completes an argument of a resource template (`completion/complete` with a
   * `ref/resource`). With it (or the prompts' `complete`), the `completions` capability is
   * declared.
   */
  complete?(params: CompleteRequestParams, request: McpSourceRequest): Promise<CompleteResult>;
}

/** Prompts a tool server serves besides its tools. Errors as for {@link McpResourceSource}. */
export interface McpPromptSource {
  /** Every prompt, in a stable order, in one page. */
  list(request: McpSourceRequest): Promise<ListPromptsResult>;
  /** One prompt, rendered with its arguments. */
  get(params: GetPromptRequestParams, request: McpSourceRequest): Promise<GetPromptResult>;
  /** Calls `listener` when the prompt list changed; returns a function that unsubscribes. */
  onListChanged(listener: () => void): () => void;
  /** Completes an argument of a prompt (`completion/complete` with a `ref/prompt`). */
  complete?(params: CompleteRequestParams, request: McpSourceRequest): Promise<CompleteResult>;
}

/** Log messages a tool server relays to its clients (MCP logging). */
export interface McpLogSource {
  /**
   * The least severe level any connected client asked for (`logging/setLevel`), so that
   * the source sends at least what that client wants; each client still gets only the
   * messages at or above its own level.
   */
  setLevel(level: LoggingLevel): Promise<void>;
  /** Calls `listener` with each message; returns a function that unsubscribes. */
  onMessage(listener: (params: LoggingMessageNotificationParams) => void): () => void;
}

/** The MCP logging levels, least severe first (RFC 5424 order). */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/**
 * A change a tool server announces to its clients: one of its lists changed, or a
 * resource clients subscribed to. The HTTP entry passes these to the `subscriptions/listen`
 * streams of 2026-07-28 clients.
 */
export type McpServerEvent =
  | { readonly kind: 'tools_list_changed' }
  | { readonly kind: 'prompts_list_changed' }
  | { readonly kind: 'resources_list_changed' }
  | { readonly kind: 'resource_updated'; readonly uri: string };
