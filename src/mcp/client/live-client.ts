import { randomUUID } from 'node:crypto';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { asError } from '../../errors/index.js';
import { AbortScope } from '../../schedule/index.js';
import type { ToolCancellation } from '../../tool/index.js';
import { MAX_MS } from './mcp-server-options.js';
import type { ProgressRoutes } from './open-mcp-client.js';
import type { RawToolListings } from './raw-tool-listings-transport.js';
import type { RemoteCallRequest } from './remote-tool.js';
import type { StderrTail } from './stderr-tail.js';
import type { ToolCallTransport } from './tool-call-transport.js';
import { isConnectionFailure, UpstreamUnavailableError } from './upstream-unavailable-error.js';

const noop = (): void => {};

/**
 * An `AbortSignal` that aborts with `cancellation`, for the SDK client's `callTool`: the
 * signal itself when it is one, else one made now (calls on the SDK's path only), and what
 * stops following it once the call is over.
 */
const abortSignalOf = (
  cancellation: ToolCancellation,
): { readonly signal: AbortSignal; readonly release: () => void } => {
  if (cancellation instanceof AbortSignal) return { signal: cancellation, release: noop };
  const scope = new AbortScope();
  const release = scope.follow(cancellation);
  return { signal: scope.signal, release };
};

/** One established connection to a server. */
export interface LiveClient {
  readonly client: Client;
  /** Where the server's progress notifications go, by token. */
  readonly progress: ProgressRoutes;
  /** `tools/call` past the SDK's request layer, when the connection allows it (2025-era stdio). */
  readonly raw?: ToolCallTransport;
  /** Puts back the `annotations.custom` the SDK drops from a list read on this connection. */
  readonly listings?: RawToolListings;
  /** Tail of the process's stderr (stdio). */
  readonly stderr: StderrTail;
  /** Clock time the connection was made. */
  readonly connectedAt: number;
  /** False once the connection is lost or closed. */
  alive: boolean;
  /** Why it was lost, when the transport said. */
  lostReason?: string;
}

/** What a call needs from the connection that owns `live`. */
export interface LiveCallHooks {
  readonly origin: string;
  /** Reports that `live` is gone, so that the connection reconnects. */
  lost(live: LiveClient, error: Error): void;
  /** True once the connection is closed for good. */
  closed(): boolean;
}

/**
 * Sends one `tools/call` on `live` with the call's signal (its abort sends
 * `notifications/cancelled`) and returns the server's result unchanged. A failure that
 * means the connection is gone reports the loss and becomes an
 * {@link UpstreamUnavailableError}; an aborted call rethrows as is (the runtime reports it
 * as a timeout or cancellation); any other error is the tool's.
 */
export function callLive(
  live: LiveClient,
  request: RemoteCallRequest,
  hooks: LiveCallHooks,
): Promise<CallToolResult> {
  const { onProgress } = request;
  const progressToken = onProgress === undefined ? undefined : `hintgate-${randomUUID()}`;
  if (progressToken !== undefined && onProgress !== undefined) {
    live.progress.set(progressToken, ({ progress, total, message }) =>
      onProgress({
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      }),
    );
  }
  let sent: Promise<CallToolResult>;
  try {
    // A tool with an output schema stays on the SDK client, which checks its structured
    // content against the schema (hintgate's own check of it is lenient for remote tools).
    sent =
      live.raw !== undefined && request.hasOutputSchema !== true
        ? live.raw.callTool(
            // Without progress the request itself has what is sent: no copy per call.
            progressToken === undefined
              ? request
              : {
                  name: request.name,
                  arguments: request.arguments,
                  progressToken,
                  ...(request.meta === undefined ? {} : { meta: request.meta }),
                },
            request.signal,
          )
        : callThroughClient(live, request, progressToken);
  } catch (error) {
    sent = Promise.reject(error);
  }
  // Chained, not awaited: a call is one promise more, not an async frame and its turns.
  const called = sent.catch((error: unknown) => {
    if (request.signal.aborted) throw error;
    if (!live.alive || isConnectionFailure(error)) {
      const reason = live.lostReason ?? asError(error).message;
      hooks.lost(live, asError(error));
      throw new UpstreamUnavailableError(
        hooks.origin,
        `MCP server "${hooks.origin}" went away while tool "${request.name}" ran (${reason}); the call may or may not have taken effect. ${hooks.closed() ? 'The connection is closed.' : 'The server is being reconnected; try again shortly.'}`,
        { cause: error },
      );
    }
    throw error;
  });
  if (progressToken === undefined) return called;
  return called.finally(() => live.progress.delete(progressToken));
}

/** The call through the SDK client's `callTool`, with the call's signal made for it. */
function callThroughClient(
  live: LiveClient,
  request: RemoteCallRequest,
  progressToken: string | undefined,
): Promise<CallToolResult> {
  const { signal, release } = abortSignalOf(request.signal);
  return live.client
    .callTool(
      {
        name: request.name,
        arguments: request.arguments,
        ...(progressToken === undefined && request.meta === undefined
          ? {}
          : {
              _meta: {
                ...request.meta,
                ...(progressToken === undefined ? {} : { progressToken }),
              },
            }),
      },
      {
        signal,
        // The runtime's timeout governs through the signal; this only backs it up.
        timeout: MAX_MS,
        ...(request.toolDefinition === undefined ? {} : { toolDefinition: request.toolDefinition }),
      },
    )
    .finally(release);
}

/** State of a connection that is down, for the message of a call that was not sent. */
export interface DownState {
  readonly origin: string;
  readonly tool: string;
  readonly closed: boolean;
  readonly lastError: Error | undefined;
  /** Milliseconds until the next reconnect attempt; `undefined` while one is under way. */
  readonly nextAttemptInMs: number | undefined;
}

/** Why a call was not sent to a server that is down, and when it may work again. */
export function downMessage(state: DownState): string {
  const { origin, tool } = state;
  const why = state.lastError === undefined ? '' : ` (${state.lastError.message})`;
  if (state.closed)
    return `MCP server "${origin}" is disconnected${why}; tool "${tool}" was not called.`;
  const wait = Math.max(0, Math.ceil(state.nextAttemptInMs ?? 0));
  const next =
    state.nextAttemptInMs === undefined
      ? 'a reconnect attempt is under way'
      : `the next reconnect attempt is in ${wait < 1000 ? `${wait} ms` : `${(wait / 1000).toFixed(1)} s`}`;
  return `MCP server "${origin}" is unavailable${why}; ${next}. Tool "${tool}" was not called; try again later.`;
}
