import { randomUUID } from 'node:crypto';
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { HintgateError } from '../../errors/index.js';
import { MAX_TIMER_MS } from '../../tool/index.js';
import type { McpToolServer } from './create-mcp-tool-server.js';
import type { LegacyHttpSession } from './http-fast-calls.js';
import { type SessionLimits, SessionTable, type TableSession } from './session-table.js';

/** Options of {@link createMcpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /** The tool server whose instances answer the requests. */
  readonly toolServer: McpToolServer;
  /**
   * Most 2025-11-25 sessions open at once. A new session is never refused for lack of room:
   * it evicts one (see `SessionTable`: one idle for `sessionIdleMs`, else one of the client
   * holding the most sessions, a never-initialized one before one in use, least recently
   * used first). Default 64.
   */
  readonly maxSessions?: number;
  /**
   * Most 2025-11-25 sessions one client (the `client` of its requests: its address) holds;
   * a client at the limit that opens another closes its own least recently used. Default 16.
   */
  readonly maxSessionsPerClient?: number;
  /** Idle time after which a session is evicted before any in use, in ms. Default 10 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * Time a session may stay without a request after its initialize (normally
   * `notifications/initialized` follows at once) before it is closed, in ms. Default 10000.
   */
  readonly uninitializedSessionMs?: number;
  /** Called with errors that cannot reach a client. Default: ignore. */
  readonly onError?: (error: Error) => void;
}

/** Per-request inputs of {@link McpHttpHandler.fetch}. */
export interface McpHttpRequestOptions {
  /** The verified caller, passed to tool calls as `ctx.http.authInfo`. */
  readonly authInfo?: AuthInfo;
  /**
   * Who sent the request, for the per-client session limit: e.g. its address. Default: one
   * client for all requests.
   */
  readonly client?: string;
}

/** A web-standard MCP endpoint that serves both protocol eras. */
export interface McpHttpHandler {
  /** Serves one HTTP request of the endpoint (POST, GET or DELETE). */
  fetch(request: Request, options?: McpHttpRequestOptions): Promise<Response>;
  /** Open 2025-11-25 sessions. */
  readonly sessionCount: number;
  /** Closes every session and in-flight exchange. */
  close(): Promise<void>;
}

interface Session extends TableSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** Aborted when the session ends, for the calls served past the SDK. */
  readonly ended: AbortController;
  /** The principal of the token that opened it; only that principal is answered. */
  readonly principal?: string;
}

/** Default limits of the session table. */
const SESSION_DEFAULTS = {
  maxSessions: 64,
  maxSessionsPerClient: 16,
  sessionIdleMs: 10 * 60_000,
  uninitializedSessionMs: 10_000,
} as const;

const jsonRpcError = (status: number, code: number, message: string): Response =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/** An HTTP handler and the lookup of its open 2025-11-25 sessions; see {@link createMcpHttpEndpoint}. */
export interface McpHttpEndpoint {
  /** The handler, as {@link createMcpHttpHandler} returns it. */
  readonly handler: McpHttpHandler;
  /** The open 2025-11-25 session of an `Mcp-Session-Id`, for a transport layer in front. */
  legacySession(id: string): LegacyHttpSession | undefined;
}

/**
 * Checks the session limits of `options` (see {@link McpHttpHandlerOptions}): positive
 * integers, and `uninitializedSessionMs` one a timer can wait (at most `MAX_TIMER_MS`).
 *
 * @throws HintgateError `invalid_option` naming the limit.
 */
export function checkSessionLimits(options: Partial<SessionLimits>): void {
  for (const key of Object.keys(SESSION_DEFAULTS) as Array<keyof SessionLimits>) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(Number.isInteger(value) && value > 0)) {
      throw new HintgateError('invalid_option', `${key} must be a positive integer.`);
    }
    if (key === 'uninitializedSessionMs' && value > MAX_TIMER_MS) {
      throw new HintgateError(
        'invalid_option',
        `uninitializedSessionMs must be at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest a timer waits; it is ${value}.`,
      );
    }
  }
}

/**
 * The Streamable HTTP endpoint of a tool server, for both protocol eras at one URL.
 *
 * 2026-07-28 requests go to the SDK's per-request entry (`createMcpHandler`), which builds
 * an instance per request; approvals travel as `input_required` results, and list changes
 * and resource updates reach `subscriptions/listen` streams. 2025-11-25 traffic is served with sessions
 * (`Mcp-Session-Id`) instead of the SDK's stateless fallback, because a server-initiated
 * `elicitation/create` needs a session to carry the client's answer back, and
 * `notifications/tools/list_changed` needs the session's standalone stream.
 *
 * The handler validates neither `Host`/`Origin` nor credentials; put those in front of it
 * ({@link startMcpHttpServer} does).
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  return createMcpHttpEndpoint(options).handler;
}

/**
 * {@link createMcpHttpHandler}, with the lookup of its open 2025-11-25 sessions that the
 * HTTP fast path of `startMcpHttpServer` needs. Internal: not exported from any index.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createMcpHttpEndpoint(options: McpHttpHandlerOptions): McpHttpEndpoint {
  if (
    typeof (options as { toolServer?: { createServer?: unknown } } | null)?.toolServer
      ?.createServer !== 'function'
  ) {
    throw new HintgateError(
      'invalid_option',
      'createMcpHttpHandler expects { toolServer } from createMcpToolServer({ runtime }).',
    );
  }
  checkSessionLimits(options);
  const limits: SessionLimits = { ...SESSION_DEFAULTS };
  for (const key of Object.keys(SESSION_DEFAULTS) as Array<keyof SessionLimits>) {
    const value = options[key];
    if (value !== undefined) Object.assign(limits, { [key]: value });
  }
  const { toolServer } = options;
  const onerror = (error: Error): void => {
    try {
      options.onError?.(error);
    } catch {
      // Reporting must never break serving.
    }
  };
  const sessions = new SessionTable<Session>(limits, { onError: onerror });
  const modern = createMcpHandler(() => toolServer.createServer({ listChanged: false }), {
    legacy: 'reject',
    onerror,
  });
  const stopNotifying = toolServer.onServerEvent((event) => {
    switch (event.kind) {
      case 'tools_list_changed':
        return modern.notify.toolsChanged();
      case 'prompts_list_changed':
        return modern.notify.promptsChanged();
      case 'resources_list_changed':
        return modern.notify.resourcesChanged();
      case 'resource_updated':
        return modern.notify.resourceUpdated(event.uri);
    }
  });
  let closed = false;

  const openSession = async (
    request: Request,
    authInfo: AuthInfo | undefined,
    client: string,
  ): Promise<Response> => {
    let body: unknown;
    try {
      body = await request.clone().json();
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the request body is not valid JSON.');
    }
    if (!isInitializeRequest(body)) {
      return jsonRpcError(
        400,
        -32000,
        'Bad Request: initialize first. This request has no Mcp-Session-Id header: a 2025-11-25 client sends "initialize" first and then the Mcp-Session-Id it gets back on every request; a 2026-07-28 client needs no session but sends the header "MCP-Protocol-Version: 2026-07-28" on every request.',
      );
    }
    const place = sessions.reserve(client);
    if (place === undefined) {
      return jsonRpcError(503, -32000, 'Too many sessions being opened at once; retry.');
    }
    try {
      return await startSession(request, body, authInfo, client);
    } finally {
      place.release();
    }
  };

  const startSession = async (
    request: Request,
    body: unknown,
    authInfo: AuthInfo | undefined,
    client: string,
  ): Promise<Response> => {
    const ended = new AbortController();
    const end = (): void => ended.abort(new Error('the MCP session was closed'));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.add(id, {
          transport,
          server,
          ended,
          client,
          ...(authInfo?.clientId === undefined ? {} : { principal: authInfo.clientId }),
          lastActive: 0,
          lastUse: 0,
          used: false,
          close: () => transport.close(),
        });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        end();
        // Closing the instance fails approvals still waiting on this client, so they end
        // denied instead of holding calls until the approval timeout.
        setImmediate(() => {
          server.close().catch(onerror);
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      end();
    };
    const server = toolServer.createServer({
      transport: 'http',
      ...(authInfo?.clientId === undefined ? {} : { principal: authInfo.clientId }),
      ...(authInfo?.scopes === undefined ? {} : { scopes: authInfo.scopes }),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, {
      parsedBody: body,
      ...(authInfo === undefined ? {} : { authInfo }),
    });
    // An initialize that failed opened no session: nothing will reach this instance again.
    if (transport.sessionId === undefined) await transport.close().catch(onerror);
    return response;
  };

  const serveLegacy = (
    request: Request,
    authInfo: AuthInfo | undefined,
    client: string,
  ): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id === null) {
      if (request.method !== 'POST') {
        return Promise.resolve(
          jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required.'),
        );
      }
      return openSession(request, authInfo, client);
    }
    const session = sessions.get(id);
    // A session answers only the caller that opened it; to any other it does not exist.
    if (session === undefined || session.principal !== authInfo?.clientId) {
      return Promise.resolve(
        jsonRpcError(404, -32001, 'Session not found; start a new one with initialize.'),
      );
    }
    sessions.touch(session);
    return session.transport.handleRequest(
      request,
      authInfo === undefined ? undefined : { authInfo },
    );
  };

  const handler: McpHttpHandler = {
    async fetch(request, requestOptions = {}) {
      if (closed) return jsonRpcError(503, -32000, 'The server is shutting down.');
      const { authInfo, client = '' } = requestOptions;
      // A request of an open 2025-11-25 session is one without reading its body again: the
      // 2026-07-28 revision has no sessions, so no client of it sends a session id it got.
      const session = request.headers.get('mcp-session-id');
      if (
        (session !== null && sessions.get(session) !== undefined) ||
        (await isLegacyRequest(request))
      ) {
        return serveLegacy(request, authInfo, client);
      }
      return modern.fetch(request, authInfo === undefined ? {} : { authInfo });
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      stopNotifying();
      await Promise.all([modern.close().catch(onerror), sessions.closeAll()]);
    },
  };
  return {
    handler,
    legacySession(id) {
      const session = sessions.get(id);
      if (session === undefined) return undefined;
      return {
        server: session.server,
        closed: session.ended.signal,
        ...(session.principal === undefined ? {} : { principal: session.principal }),
        touch() {
          sessions.touch(session);
        },
      };
    },
  };
}
