import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { HintgateError } from '../../errors/index.js';
import { fastPathEnabled } from '../fast-paths.js';
import { answerHealth, checkReadinessChecks, type ReadinessCheck } from './answer-health.js';
import { checkSessionLimits, createMcpHttpEndpoint } from './create-mcp-http-handler.js';
import type { McpToolServer } from './create-mcp-tool-server.js';
import { createHttpFastCalls } from './http-fast-calls.js';
import { authenticate, checkHttpPrincipals, type HttpPrincipal } from './http-principals.js';
import { checkHttpRateLimit, type HttpRateLimit, HttpRateLimiter } from './http-rate-limit.js';
import {
  allowedHostnames,
  bracketHost,
  checkRequestHosts,
  DEFAULT_HTTP_HOST,
  isWildcardHost,
  normalizeAllowedHosts,
} from './http-security.js';
import { quoteHeader } from './parse-host-header.js';
import { MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';

export { DEFAULT_HTTP_HOST };
/** Default port of {@link startMcpHttpServer}. */
export const DEFAULT_HTTP_PORT = 3000;
/** Path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

/** Options of {@link startMcpHttpServer}. */
export interface McpHttpServerOptions {
  /** The tool server to expose. */
  readonly toolServer: McpToolServer;
  /** Address to listen on. Default `127.0.0.1` (this machine only). */
  readonly host?: string;
  /** Port to listen on; 0 picks a free one. Default 3000. */
  readonly port?: number;
  /**
   * When set, every request must carry `Authorization: Bearer <token>`; others get 401.
   * Default none (anyone who can reach the address may call the tools).
   */
  readonly token?: string;
  /**
   * Callers, each with its own bearer token and scopes: a request must carry one of their
   * tokens (or `token`, which stands for a principal named `bearer` without scopes of its
   * own); what it lists and may call follows its principal's scopes added to the tool
   * server's. A 2025-11-25 session answers only the principal that opened it. Default none.
   */
  readonly principals?: readonly HttpPrincipal[];
  /**
   * Most requests one caller may send per window, over every method: a caller is its
   * principal when tokens are set, else its client address. Over it, a request gets 429 with
   * `Retry-After`. Default none.
   */
  readonly rateLimit?: HttpRateLimit;
  /**
   * Host names accepted in `Host` and `Origin` headers (no ports; IPv6 in brackets).
   * Default: `localhost`, `127.0.0.1`, `[::1]`, plus `host` when it is not loopback (and
   * this machine's addresses when `host` binds every interface).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Most 2025-11-25 sessions open at once; a new one evicts another instead of being
   * refused (see `createMcpHttpHandler`). Default 64.
   */
  readonly maxSessions?: number;
  /** Most 2025-11-25 sessions one client address holds. Default 16. */
  readonly maxSessionsPerClient?: number;
  /** Idle time after which a session is evicted before any in use, in ms. Default 10 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * Time a session may stay without a request after its initialize before it is closed,
   * in ms. Default 10000.
   */
  readonly uninitializedSessionMs?: number;
  /** Called with errors that cannot reach a client. Default: ignore. */
  readonly onError?: (error: Error) => void;
  /**
   * What `/readyz` checks (the gateway's `readiness`: upstreams connected, shared state
   * reachable). `/healthz` needs none. Default none: `/readyz` is 200 while serving.
   */
  readonly readiness?: readonly ReadinessCheck[];
}

/** A running HTTP server; see {@link startMcpHttpServer}. */
export interface McpHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** The port it listens on (the chosen one when 0 was asked). */
  readonly port: number;
  /** Closes sessions and connections and stops listening. */
  close(): Promise<void>;
}

const plainJson = (res: ServerResponse, status: number, body: unknown, headers = {}): void => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/**
 * The path of an origin-form request target (`/mcp?x`), or undefined for any other form
 * (`http://host/mcp`, `*`, `host:port`). `//x` is a path too, which the URL parser would
 * read as a host.
 */
const requestPath = (target: string | undefined): string | undefined => {
  if (target === undefined || !target.startsWith('/')) return undefined;
  if (target.startsWith('//')) return target.replace(/[?#].*$/s, '');
  try {
    return new URL(target, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
};

const SESSION_OPTIONS = [
  'maxSessions',
  'maxSessionsPerClient',
  'sessionIdleMs',
  'uninitializedSessionMs',
] as const;

/** The key of a client for the per-client session limit: its address, IPv4-mapped as IPv4. */
const clientOf = (req: IncomingMessage): string =>
  (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

const checkOptions = (options: McpHttpServerOptions): void => {
  if (typeof options !== 'object' || options === null) {
    throw new HintgateError(
      'invalid_option',
      'startMcpHttpServer expects { toolServer, host?, port?, token? }.',
    );
  }
  if (
    typeof (options.toolServer as { createServer?: unknown } | undefined)?.createServer !==
    'function'
  ) {
    throw new HintgateError(
      'invalid_option',
      'toolServer must come from createMcpToolServer({ runtime }).',
    );
  }
  const { port, token, host, allowedHosts } = options;
  if (
    allowedHosts !== undefined &&
    !(Array.isArray(allowedHosts) && allowedHosts.every((h) => typeof h === 'string' && h !== ''))
  ) {
    throw new HintgateError(
      'invalid_option',
      'allowedHosts must be a list of host names, e.g. ["localhost"].',
    );
  }
  checkSessionLimits(options);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new HintgateError('invalid_option', `port must be an integer 0-65535, not ${port}.`);
  }
  if (token !== undefined && (typeof token !== 'string' || token.length < 8)) {
    throw new HintgateError('invalid_option', 'token must be a string of at least 8 characters.');
  }
  if (host !== undefined && (typeof host !== 'string' || host === '')) {
    throw new HintgateError('invalid_option', 'host must be a non-empty string.');
  }
  if (options.principals !== undefined) checkHttpPrincipals(options.principals);
  if (options.rateLimit !== undefined) checkHttpRateLimit(options.rateLimit);
  if (options.readiness !== undefined) checkReadinessChecks(options.readiness);
};

/**
 * Serves a tool server over Streamable HTTP at `/mcp`, both protocol eras at one URL
 * (see {@link createMcpHttpHandler}), with `/healthz` and `/readyz` for load balancers
 * (see `answerHealth`: no token, no `Host` check). In front of the endpoint, in this
 * order: a request target that is not a path gets 400, other paths 404; a malformed `Host` or `Origin`
 * header gets 400 and one naming a host not in `allowedHosts` 403 (DNS rebinding
 * protection; see `checkRequestHosts`); with a `token`, a request without the right bearer
 * token gets 401.
 *
 * @throws HintgateError `invalid_option` for bad options; rejects when the port is taken.
 */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<McpHttpServer> {
  checkOptions(options);
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const allowed = normalizeAllowedHosts(options.allowedHosts ?? allowedHostnames(host));
  const { token } = options;
  // Loaded here, not with the module: a process that serves only stdio never loads the
  // SDK's Node HTTP adapter (and the web framework under it), about 50 ms of its start.
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const principals = [
    ...(options.principals === undefined ? [] : checkHttpPrincipals(options.principals)),
    ...(token === undefined ? [] : [{ name: 'bearer', token, scopes: [] }]),
  ];
  const readiness = [...(options.readiness ?? [])];
  const limiter =
    options.rateLimit === undefined ? undefined : new HttpRateLimiter(options.rateLimit);
  const { handler, legacySession } = createMcpHttpEndpoint({
    toolServer: options.toolServer,
    ...Object.fromEntries(
      SESSION_OPTIONS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]),
    ),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const adapterOptions = options.onError === undefined ? {} : { onerror: options.onError };
  /** The SDK's Node adapter over the handler, with the client's address for its sessions. */
  const serve = (req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> => {
    const client = clientOf(req);
    return toNodeHandler(
      { fetch: (request, requestOptions) => handler.fetch(request, { ...requestOptions, client }) },
      adapterOptions,
    )(req as NodeIncomingMessageLike, res, body);
  };
  // Plain tools/call requests of 2025-11-25 sessions are answered from this listener,
  // past the SDK's web-standard request handling (see createHttpFastCalls).
  const fast = fastPathEnabled('http')
    ? createHttpFastCalls({
        toolServer: options.toolServer,
        session: legacySession,
        onError: (error) => options.onError?.(error),
      })
    : undefined;

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const path = requestPath(req.url);
    if (path === undefined) {
      plainJson(res, 400, {
        error: `Bad Request: the request target ${quoteHeader(req.url ?? '')} is not a path; send ${MCP_PATH}.`,
      });
      return;
    }
    if (path !== MCP_PATH) {
      if (answerHealth(path, req, res, readiness)) return;
      plainJson(res, 404, { error: `Not found; the MCP endpoint is ${MCP_PATH}.` });
      return;
    }
    const refusal = checkRequestHosts(req, allowed);
    if (refusal !== undefined) {
      plainJson(res, refusal.status, {
        jsonrpc: '2.0',
        error: { code: -32000, message: refusal.message },
        id: null,
      });
      return;
    }
    let authInfo: AuthInfo | undefined;
    if (principals.length > 0) {
      authInfo = authenticate(req, principals);
      if (authInfo === undefined) {
        plainJson(
          res,
          401,
          {
            error: 'invalid_token',
            error_description: 'This server requires Authorization: Bearer <token>.',
          },
          { 'WWW-Authenticate': 'Bearer realm="hintgate", error="invalid_token"' },
        );
        return;
      }
      // toNodeHandler passes `req.auth` on as the request's authInfo.
      Object.assign(req, { auth: authInfo });
    }
    const retryAfter = limiter?.take(authInfo?.clientId ?? `address ${clientOf(req)}`);
    if (retryAfter !== undefined) {
      plainJson(
        res,
        429,
        {
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: `Too many requests: at most ${limiter?.limit.max} per ${limiter?.limit.windowMs} ms from one caller; retry after ${retryAfter} s.`,
          },
          id: null,
        },
        { 'Retry-After': String(retryAfter) },
      );
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const opened = typeof sessionId === 'string' ? legacySession(sessionId) : undefined;
    if (opened !== undefined && opened.principal !== authInfo?.clientId) {
      // A session answers only the caller that opened it; to any other it does not exist.
      plainJson(res, 404, {
        jsonrpc: '2.0',
        error: { code: -32001, message: 'Session not found; start a new one with initialize.' },
        id: null,
      });
      return;
    }
    const wanted = fast?.wants(req);
    if (fast === undefined || wanted === undefined) {
      void serve(req, res);
      return;
    }
    readJsonBody(req).then(
      (body) => {
        if (body.kind === 'too-large') {
          // The rest of the body is not read: the connection goes with the answer.
          res.once('finish', () => req.destroy());
          plainJson(
            res,
            413,
            {
              jsonrpc: '2.0',
              error: { code: -32000, message: `Request body larger than ${MAX_BODY_BYTES} bytes.` },
              id: null,
            },
            { connection: 'close' },
          );
        } else if (body.kind === 'invalid') {
          plainJson(res, 400, {
            jsonrpc: '2.0',
            error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' },
            id: null,
          });
        } else if (!fast.take(body.value, wanted, res)) {
          void serve(req, res, body.value);
        }
      },
      (error: unknown) => {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
        if (!res.headersSent) res.writeHead(400);
        res.end();
      },
    );
  };

  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_HTTP_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    // A wildcard address is no address to connect to; loopback reaches it from here.
    url: `http://${isWildcardHost(host) ? '127.0.0.1' : bracketHost(host)}:${port}${MCP_PATH}`,
    port,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await handler.close();
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
