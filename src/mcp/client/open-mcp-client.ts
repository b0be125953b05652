import { createRequire } from 'node:module';
import {
  Client,
  type Tool as McpTool,
  type Progress,
  type ResponseCacheStore,
  StreamableHTTPClientTransport,
  type Transport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fastPathEnabled } from '../fast-paths.js';
import { MODERN_REVISION } from '../protocol-revision.js';
import type { McpServerNotification } from './connection-events.js';
import { linearSchemaValidator } from './linear-schema-validator.js';
import { listToolPages } from './list-tool-pages.js';
import type { McpEraOption } from './mcp-server-options.js';
import type { CheckedTarget } from './mcp-target.js';
import { type RawToolListings, RawToolListingsTransport } from './raw-tool-listings-transport.js';
import type { StderrTail } from './stderr-tail.js';
import { NotJsonRpcMessageError, StdioUpstreamTransport } from './stdio-upstream-transport.js';
import { ToolCallTransport } from './tool-call-transport.js';
import {
  CAPABILITY_OF,
  UPSTREAM_REQUEST_METHODS,
  type UpstreamRequests,
} from './upstream-requests.js';
import { type HttpFetchHooks, watchHttpFetch } from './watch-http-fetch.js';

/** What one connection attempt needs. */
export interface OpenMcpClientOptions {
  /** The server's name, as messages about it say. */
  readonly origin: string;
  readonly target: CheckedTarget;
  readonly era: McpEraOption;
  readonly connectTimeoutMs: number;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly onStderr?: (text: string) => void;
  /** Receives the tail of the process's stderr (stdio only). */
  readonly stderr: StderrTail;
  /** Aborts the attempt (the connection is being closed). */
  readonly signal: AbortSignal;
  /** The connection was lost or closed (the process exited, the transport closed). */
  readonly onClose: () => void;
  /** The server's tool list changed and was read again. */
  readonly onToolsChanged: (tools: McpTool[]) => void;
  /** Reading the tool list again after a change failed. */
  readonly onToolsError: (error: Error) => void;
  /** The server sent a notification other than about its tools (resources, prompts, logs). */
  readonly onNotification: (notification: McpServerNotification) => void;
  /**
   * The server sent a message that could not be used and was ignored: one that is not a
   * JSON-RPC message, a response to no request, a notification its handler refused.
   */
  readonly onProtocolError?: (error: Error) => void;
  /**
   * The transport reported a problem that is not about a message's content (a stream that
   * broke off, a failed reconnect of a stream, a request that could not be sent).
   */
  readonly onTransportError?: (error: Error) => void;
  /** What the requests of an HTTP connection tell about the server being reachable (HTTP only). */
  readonly http?: HttpFetchHooks;
  /** Answers the server's requests to its client (roots, sampling, elicitation). */
  readonly serverRequests?: UpstreamRequests;
  /**
   * False for a connection that only lists the tools and makes no call (`hintgate pin`):
   * the client keeps no response cache at all, not even of a list read again after the
   * server says it changed. Either way the first list is read without the client's parsed
   * copy of it (see `listToolPages`), except from a 2026-era server over HTTP. Default true.
   */
  readonly keepListings?: boolean;
}

/** A response cache that keeps nothing: every read misses. */
const NO_RESPONSE_CACHE: ResponseCacheStore = {
  get: () => undefined,
  set: () => 0,
  delete: () => {},
  evict: () => {},
  clear: () => {},
};

/** Receives the progress of one request, by the token it was sent with. */
export type ProgressRoutes = Map<string | number, (progress: Progress) => void>;

/** A connected client and its first tool list. */
export interface OpenedMcpClient {
  readonly client: Client;
  readonly tools: McpTool[];
  /** Where the server's `notifications/progress` go, by progress token. */
  readonly progress: ProgressRoutes;
  /** `tools/call` past the SDK's request layer, on a 2025-era stdio connection. */
  readonly raw?: ToolCallTransport;
  /** Puts back the `annotations.custom` of a later list read on this connection. */
  readonly listings: RawToolListings;
}

/** Debounce of `list_changed` bursts before the list is read again, in milliseconds. */
const LIST_CHANGED_DEBOUNCE_MS = 50;

const require = createRequire(import.meta.url);
const packageVersion = (): string => {
  try {
    return (require('../../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
};

/** Shared by every connection: compiled schemas are cached in it. */
let schemaValidator: ReturnType<typeof linearSchemaValidator> | undefined;

const negotiation = (era: McpEraOption): VersionNegotiationMode =>
  era === 'modern' ? { pin: MODERN_REVISION } : era;

/** An error the transport raised because what arrived was not a usable message. */
const isParseError = (error: Error): boolean =>
  error instanceof SyntaxError ||
  error.name === 'ZodError' ||
  error instanceof NotJsonRpcMessageError;

/** The transport the client connects to: its top layer, and the layer that keeps the listings. */
interface TransportStack {
  readonly transport: Transport;
  readonly listings: RawToolListingsTransport;
}

/**
 * The layers over the wire, bottom up: the SDK's transport (or the stdio one of the
 * upstream fast path), the layer that keeps what `tools/list` answers said in
 * `annotations.custom`, and on the fast path the layer that sends `tools/call` itself.
 */
const transportFor = (
  origin: string,
  target: CheckedTarget,
  era: McpEraOption,
  stderr: StderrTail,
  onStderr: ((text: string) => void) | undefined,
  http: HttpFetchHooks | undefined,
): TransportStack => {
  if (target.kind === 'http') {
    const listings = new RawToolListingsTransport(
      new StreamableHTTPClientTransport(target.url, {
        requestInit: { headers: { ...target.headers } },
        ...(http === undefined ? {} : { fetch: watchHttpFetch(http) }),
      }),
      origin,
    );
    return { transport: listings, listings };
  }
  const params = {
    command: target.command,
    args: [...target.args],
    ...(target.env === undefined ? {} : { env: { ...target.env } }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
  };
  // The SDK's own stdio transport for the probe of `auto` and `modern`: it asks a sibling
  // process, so that a server which exits on the probe still gets the 2025 handshake. A
  // 2025-era server gets the upstream fast path: a transport that writes the messages of a
  // turn together, under the layer that sends tools/call itself (ToolCallTransport).
  const fast = era === 'legacy' && fastPathEnabled('upstream');
  const transport = fast
    ? new StdioUpstreamTransport(params)
    : new StdioClientTransport({ ...params, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    const text = String(chunk);
    stderr.append(text);
    try {
      onStderr?.(text);
    } catch {
      // A failing stderr listener must not break the pipe that keeps the server running.
    }
  });
  const listings = new RawToolListingsTransport(transport, origin);
  return { transport: fast ? new ToolCallTransport(listings) : listings, listings };
};

/**
 * Makes one connection attempt: starts the transport (spawning the process for stdio),
 * negotiates the protocol era, and reads the tool list. On failure everything it started
 * is closed again before it rejects with the SDK's error.
 */
export async function openMcpClient(options: OpenMcpClientOptions): Promise<OpenedMcpClient> {
  const { stderr } = options;
  schemaValidator ??= linearSchemaValidator();
  const { serverRequests } = options;
  const stack = transportFor(
    options.origin,
    options.target,
    options.era,
    stderr,
    options.onStderr,
    options.http,
  );
  const { transport, listings } = stack;
  const client = new Client(options.clientInfo ?? { name: 'hintgate', version: packageVersion() }, {
    ...(serverRequests === undefined ? {} : { capabilities: { ...serverRequests.capabilities } }),
    ...(options.keepListings === false ? { responseCacheStore: NO_RESPONSE_CACHE } : {}),
    // A server's result is checked against its own output schema in linear time.
    jsonSchemaValidator: schemaValidator,
    versionNegotiation: { mode: negotiation(options.era) },
    listChanged: {
      tools: {
        debounceMs: LIST_CHANGED_DEBOUNCE_MS,
        onChanged: (error, tools) => {
          if (error !== null) options.onToolsError(error);
          else if (tools !== null) options.onToolsChanged(listings.restore(tools));
        },
      },
      // Only the news is passed on: whoever relays it reads the list when asked for it.
      prompts: {
        autoRefresh: false,
        debounceMs: LIST_CHANGED_DEBOUNCE_MS,
        onChanged: () => options.onNotification({ method: 'notifications/prompts/list_changed' }),
      },
      resources: {
        autoRefresh: false,
        debounceMs: LIST_CHANGED_DEBOUNCE_MS,
        onChanged: () => options.onNotification({ method: 'notifications/resources/list_changed' }),
      },
    },
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    options.onNotification({
      method: 'notifications/resources/updated',
      params: notification.params,
    });
  });
  // Routed here rather than through the SDK's `onprogress`: that one forgets a request's
  // token as soon as its result arrives, which drops a last progress notification that
  // came just before the result and is still being dispatched.
  const progress: ProgressRoutes = new Map();
  client.setNotificationHandler('notifications/progress', (notification) => {
    const { progressToken, ...params } = notification.params;
    progress.get(progressToken)?.(params);
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    options.onNotification({ method: 'notifications/message', params: notification.params });
  });
  if (serverRequests !== undefined) {
    for (const method of UPSTREAM_REQUEST_METHODS) {
      if (serverRequests.capabilities[CAPABILITY_OF[method]] === undefined) continue;
      client.setRequestHandler(
        method,
        (request, ctx) => serverRequests.handle(method, request.params, ctx.mcpReq.signal) as never,
      );
    }
  }
  let attached = true;
  client.onclose = () => {
    if (attached) options.onClose();
  };
  // The client passes on the transport's errors along with its own; a handler set on the
  // transport before connecting sees the transport's first, which tells the two apart.
  const fromTransport = new WeakSet<Error>();
  transport.onerror = (error) => {
    if (isParseError(error)) return;
    fromTransport.add(error);
    if (attached) options.onTransportError?.(error);
  };
  client.onerror = (error) => {
    if (attached && !fromTransport.has(error)) options.onProtocolError?.(error);
  };
  const request = { timeout: options.connectTimeoutMs, signal: options.signal };
  // Not every step of the handshake heeds the signal; closing the transport ends them all
  // (and stops the process of a stdio server).
  let closing: Promise<void> | undefined;
  const onAbort = (): void => {
    closing = transport.close().catch(() => {});
  };
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (options.signal.aborted) throw options.signal.reason;
    await client.connect(transport, request);
    // The pages are read without the client's parsed copy of them (its response cache):
    // each tool was judged by the listing layer already, and a call of a tool with an output
    // schema hands the client that tool's definition (see remote-tool.ts). Except where the
    // client also drops tools the 2026 revision forbids over HTTP.
    const lean = !(options.target.kind === 'http' && client.getProtocolEra() === 'modern');
    const tools = lean
      ? await listToolPages(client, request)
      : (await client.listTools(undefined, request)).tools;
    options.signal.removeEventListener('abort', onAbort);
    const raw =
      transport instanceof ToolCallTransport && client.getProtocolEra() === 'legacy'
        ? transport
        : undefined;
    return {
      client,
      tools: listings.restore(tools),
      progress,
      listings,
      ...(raw === undefined ? {} : { raw }),
    };
  } catch (error) {
    options.signal.removeEventListener('abort', onAbort);
    attached = false;
    await client.close().catch(() => {});
    // A close begun by the abort is the one that waits for the process to end.
    await (closing ?? transport.close()).catch(() => {});
    // Let the last stderr chunks of an exited process arrive before they are reported.
    await new Promise((resolve) => setImmediate(resolve));
    throw error;
  }
}
