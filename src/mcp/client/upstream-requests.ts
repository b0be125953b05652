import type { ClientCapabilities } from '@modelcontextprotocol/client';

/** Requests a server may send its client, which a relaying client passes on. */
export const UPSTREAM_REQUEST_METHODS = [
  'roots/list',
  'sampling/createMessage',
  'elicitation/create',
] as const;

/** One of {@link UPSTREAM_REQUEST_METHODS}. */
export type UpstreamRequestMethod = (typeof UPSTREAM_REQUEST_METHODS)[number];

/**
 * How a connection answers the requests its server sends (a gateway passes them on to its
 * own clients): the capabilities declared to the server, and the answer to each request.
 */
export interface UpstreamRequests {
  /**
   * Declared to the server at `initialize`: `roots`, `sampling`, `elicitation`. Only the
   * requests of declared capabilities reach {@link UpstreamRequests.handle}.
   */
  readonly capabilities: Pick<ClientCapabilities, 'roots' | 'sampling' | 'elicitation'>;
  /**
   * Answers one request of the server: resolves to its result, or rejects (an SDK
   * `ProtocolError` reaches the server as that JSON-RPC error).
   */
  handle(method: UpstreamRequestMethod, params: unknown, signal: AbortSignal): Promise<unknown>;
}

/** The request method that belongs to each capability. */
export const CAPABILITY_OF: Readonly<
  Record<UpstreamRequestMethod, keyof UpstreamRequests['capabilities']>
> = {
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
};
