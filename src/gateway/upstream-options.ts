import type { LoadedGatewayServer } from '../gateway/config/index.js';
import type { ConnectMcpServerOptions, ReconnectOptions, UpstreamRequests } from '../mcp/index.js';
import type { ToolRegistry } from '../registry/index.js';
import type { Clock } from '../schedule/index.js';
import type { CallTelemetry } from '../telemetry/index.js';

/** Connection settings the gateway and `hintgate pin` choose, not the configuration. */
export interface UpstreamConnectSettings {
  /**
   * Time allowed for one connection attempt, in milliseconds, for a server whose
   * configuration sets no `connectTimeoutMs`. Default: `connectMcpServer`'s (30 s).
   */
  readonly connectTimeoutMs?: number;
  /**
   * How to give a slow server more time, for the message of a timed-out first connection.
   * Default: the server's `connectTimeoutMs` key in the configuration.
   */
  readonly connectTimeoutHint?: string;
  /** Reconnecting after a loss; `false` gives up at once. Default: `connectMcpServer`'s. */
  readonly reconnect?: ReconnectOptions | false;
  /** Receives the server process's stderr as it arrives (stdio servers). */
  readonly onStderr?: (text: string) => void;
  /** Stops the first connection while it is being made (see `connectMcpServer`). */
  readonly signal?: AbortSignal;
  /**
   * Answers the server's requests to its client (roots, sampling, elicitation), declaring
   * those capabilities. Default none.
   */
  readonly serverRequests?: UpstreamRequests;
  /** Traces each upstream `tools/call` (see `connectMcpServer`). Default none. */
  readonly telemetry?: Pick<CallTelemetry, 'upstream'>;
  /**
   * Time source and timers of the connection: reconnect backoff, the wait of a rate-limited
   * server's window (see `connectMcpServer`'s `clock`). `createGateway` gives it to its
   * runtime too (timeouts, retries, rate limits) and to the wait of a retried call for its
   * server's reconnect. Default the system clock.
   */
  readonly clock?: Clock;
}

/**
 * What the gateway declares to its servers as their client, so that it can pass their
 * requests on to its own clients: roots (with list changes), sampling, elicitation (forms
 * and URLs). Servers that offer tools only to clients with these (server-everything's
 * elicitation and sampling tools) list them to the gateway and to `hintgate pin` alike.
 */
export const GATEWAY_CLIENT_CAPABILITIES: UpstreamRequests['capabilities'] = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
};

/** The `connectMcpServer` options of a configured server, its tools going to `registry`. */
export function upstreamOptions(
  server: LoadedGatewayServer,
  registry: ToolRegistry,
  settings: UpstreamConnectSettings = {},
): ConnectMcpServerOptions {
  const connectTimeoutMs = server.connectTimeoutMs ?? settings.connectTimeoutMs;
  const common = {
    name: server.name,
    registry,
    trusted: server.trusted,
    // A schema is compiled when its tool is first called: starting with a server of
    // thousands of tools does not compile thousands of schemas.
    schemas: 'lazy' as const,
    ...(server.concurrency === undefined ? {} : { concurrency: server.concurrency }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
    ...(server.era === undefined ? {} : { era: server.era }),
    connectTimeoutHint:
      settings.connectTimeoutHint ??
      `raise "connectTimeoutMs" of server "${server.name}" in the configuration`,
    ...(settings.reconnect === undefined ? {} : { reconnect: settings.reconnect }),
    ...(settings.onStderr === undefined ? {} : { onStderr: settings.onStderr }),
    ...(settings.signal === undefined ? {} : { signal: settings.signal }),
    ...(settings.serverRequests === undefined ? {} : { serverRequests: settings.serverRequests }),
    ...(settings.telemetry === undefined ? {} : { telemetry: settings.telemetry }),
    ...(settings.clock === undefined ? {} : { clock: settings.clock }),
  };
  if (server.transport === 'http') {
    return { ...common, url: server.url, headers: { ...server.headers } };
  }
  return {
    ...common,
    command: server.command,
    args: [...server.args],
    ...(server.env === undefined ? {} : { env: { ...server.env } }),
    cwd: server.cwd,
  };
}
