import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { AbortScope } from '../../schedule/index.js';
import { isPlainObject } from '../../tool/index.js';
import { isModernRevision } from '../protocol-revision.js';
import type { ElicitationAnswer } from './approval-form.js';
import type { McpToolServer } from './create-mcp-tool-server.js';
import { createElicitationChannel } from './elicitation-channel.js';
import { jsonRpcError } from './json-rpc-error.js';
import {
  callResultResponse,
  hasModernEnvelope,
  isRequestId,
  type WireCallParams,
  wireCallParams,
} from './tool-call-wire.js';

/** An open 2025-11-25 session of the HTTP endpoint, as the fast path needs it. */
export interface LegacyHttpSession {
  /** The SDK instance serving the session. */
  readonly server: Server;
  /** Marks the session in use now (for the eviction of idle sessions). */
  touch(): void;
  /** Aborted when the session ends (DELETE, eviction, shutdown). */
  readonly closed: AbortSignal;
  /** The principal of the token that opened the session, if any. */
  readonly principal?: string;
}

/** Options of {@link createHttpFastCalls}. */
export interface HttpFastCallsOptions {
  /** The tool server whose handler answers the calls. */
  readonly toolServer: McpToolServer;
  /** The open 2025-11-25 session of an `Mcp-Session-Id`, if there is one. */
  readonly session: (id: string) => LegacyHttpSession | undefined;
  /** Called with errors that cannot reach a client. */
  readonly onError: (error: Error) => void;
}

/** The headers of a request {@link HttpFastCalls.wants} that the fast path goes by. */
export interface FastRequest {
  /** Its `Mcp-Session-Id`, of an open 2025-11-25 session. */
  readonly sessionId: string;
  /** Its `MCP-Protocol-Version`, if any. */
  readonly protocolVersion: string | undefined;
}

/** What {@link createHttpFastCalls} returns. */
export interface HttpFastCalls {
  /**
   * Whether a request may be for the fast path: a POST of an open 2025-11-25 session whose
   * client accepts both JSON and an event stream. Only such a request's body is read.
   */
  wants(req: IncomingMessage): FastRequest | undefined;
  /**
   * Takes the parsed body of a request {@link wants} took: answers it here and says so
   * (true), or leaves it, unanswered, to the SDK (false).
   */
  take(body: unknown, request: FastRequest, res: ServerResponse): boolean;
}

/** How often an event stream waiting for an approval gets a comment, in ms. */
const KEEP_ALIVE_MS = 15_000;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

interface Exchange {
  readonly res: ServerResponse;
  readonly sessionId: string;
  /** True once the response became an event stream (an approval was asked on it). */
  streaming: boolean;
}

interface PendingAnswer {
  /** Only the session that was asked may answer. */
  readonly sessionId: string;
  readonly resolve: (answer: ElicitationAnswer) => void;
  readonly reject: (error: unknown) => void;
}

const ANSWER_ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/**
 * The HTTP fast path of `tools/call` for 2025-11-25 sessions: a POST whose body is one
 * `tools/call` request runs straight through the tool server's one handler, as the SDK's
 * handler would run it, without the SDK's conversion of the request and response to
 * web-standard objects, its stream bookkeeping and its per-message validation. Params and
 * results are checked as the SDK's schemas check them (`tool-call-wire.ts`, shared with the
 * stdio layer), so a call gets the same answer on every path. The answer is JSON, as the
 * Streamable HTTP transport allows a server to choose, unless the call sends something
 * first: a progress notification (for a progress token in `_meta`) or an approval request.
 *
 * Those go out on the call's own response, which then becomes an event stream carrying
 * them (an approval as an `elicitation/create` request) and, later, the result: the
 * transport's rule for requests related to a client's request. The client's answer (a POST
 * of a JSON-RPC response) and `notifications/cancelled` for a call under way are taken here
 * too. Everything else is left to the SDK.
 */
export function createHttpFastCalls(options: HttpFastCallsOptions): HttpFastCalls {
  const { toolServer } = options;
  /** Calls under way by session and request id, to cancel. */
  const running = new Map<string, AbortScope>();
  const answers = new Map<string, PendingAnswer>();

  const runningKey = (sessionId: string, id: string | number): string =>
    `${sessionId}\u0000${typeof id}\u0000${String(id)}`;

  const startStream = (exchange: Exchange): void => {
    if (exchange.streaming) return;
    exchange.streaming = true;
    exchange.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'mcp-session-id': exchange.sessionId,
    });
    // A person may take minutes to answer: keep proxies from closing an idle stream.
    const keepAlive = setInterval(() => {
      if (!exchange.res.writableEnded && !exchange.res.destroyed)
        exchange.res.write(': keepalive\n\n');
    }, KEEP_ALIVE_MS);
    keepAlive.unref();
    exchange.res.once('close', () => clearInterval(keepAlive));
  };

  const sendEvent = (exchange: Exchange, message: unknown): void => {
    if (exchange.res.writableEnded || exchange.res.destroyed) return;
    exchange.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  };

  const finish = (exchange: Exchange, message: unknown): void => {
    const { res } = exchange;
    if (res.writableEnded || res.destroyed) return;
    if (exchange.streaming) {
      sendEvent(exchange, message);
      res.end();
      return;
    }
    const body = JSON.stringify(message);
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'mcp-session-id': exchange.sessionId,
    });
    res.end(body);
  };

  /** Asks the client on the call's response stream and waits for the POST of its answer. */
  const elicitOn =
    (exchange: Exchange) =>
    (form: unknown, signal: AbortSignal): Promise<ElicitationAnswer> =>
      new Promise<ElicitationAnswer>((resolve, reject) => {
        if (signal.aborted) {
          reject(signal.reason);
          return;
        }
        const id = `hintgate-approval-${randomUUID()}`;
        const onAbort = (): void => {
          if (!answers.delete(id)) return;
          sendEvent(exchange, {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String(signal.reason) },
          });
          reject(signal.reason);
        };
        answers.set(id, {
          sessionId: exchange.sessionId,
          resolve: (answer) => {
            signal.removeEventListener('abort', onAbort);
            resolve(answer);
          },
          reject: (error) => {
            signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        });
        signal.addEventListener('abort', onAbort, { once: true });
        startStream(exchange);
        sendEvent(exchange, { jsonrpc: '2.0', id, method: 'elicitation/create', params: form });
      });

  const run = async (
    session: LegacyHttpSession,
    exchange: Exchange,
    id: string | number,
    call: WireCallParams,
  ): Promise<void> => {
    // A scope, not an AbortController: the runtime reads no more of it, and it costs a
    // fraction of an AbortSignal to make.
    const controller = new AbortScope();
    const key = runningKey(exchange.sessionId, id);
    running.set(key, controller);
    // A session that ends takes its calls with it, approvals asked included.
    const onClosed = (): void => controller.abort(new Error('the MCP session was closed'));
    if (session.closed.aborted) onClosed();
    else session.closed.addEventListener('abort', onClosed, { once: true });
    const { server } = session;
    const channel = createElicitationChannel({
      capabilities: () => server.getClientCapabilities(),
      elicit: elicitOn(exchange),
    });
    const { progressToken } = call;
    let response: unknown;
    try {
      const result = await toolServer.callTool(server, {
        id,
        name: call.name,
        arguments: call.arguments,
        signal: controller,
        channels: [channel],
        ...(call.meta === undefined ? {} : { meta: call.meta }),
        ...(progressToken === undefined
          ? {}
          : {
              // Related to the call: sent on its response, which becomes an event stream.
              progress: (progress) => {
                startStream(exchange);
                sendEvent(exchange, {
                  jsonrpc: '2.0',
                  method: 'notifications/progress',
                  params: { progressToken, ...progress },
                });
                return Promise.resolve();
              },
            }),
      });
      response = callResultResponse(id, result);
    } catch (error) {
      response = { jsonrpc: '2.0', id, error: jsonRpcError(error) };
    } finally {
      session.closed.removeEventListener('abort', onClosed);
      if (running.get(key) === controller) running.delete(key);
    }
    if (controller.aborted && session.closed.aborted) {
      finish(exchange, {
        jsonrpc: '2.0',
        id,
        error: {
          code: -32000,
          message: 'The MCP session was closed while the call ran, so the call was cancelled.',
        },
      });
      return;
    }
    // Cancelled by the client: no response, as on the SDK's path.
    if (controller.aborted) {
      if (!exchange.res.writableEnded) {
        if (!exchange.streaming) exchange.res.writeHead(202);
        exchange.res.end();
      }
      return;
    }
    finish(exchange, response);
  };

  const accepted = (res: ServerResponse): true => {
    res.writeHead(202);
    res.end();
    return true;
  };

  return {
    wants(req) {
      if (req.method !== 'POST') return undefined;
      const sessionId = header(req, 'mcp-session-id');
      if (sessionId === undefined || options.session(sessionId) === undefined) return undefined;
      const accept = header(req, 'accept') ?? '';
      const type = header(req, 'content-type') ?? '';
      if (
        !accept.includes('application/json') ||
        !accept.includes('text/event-stream') ||
        !type.includes('application/json')
      ) {
        return undefined;
      }
      return { sessionId, protocolVersion: header(req, 'mcp-protocol-version') };
    },
    take(body, { sessionId, protocolVersion }, res) {
      if (!isPlainObject(body) || body.jsonrpc !== '2.0') return false;
      const session = options.session(sessionId);
      if (session === undefined) return false;
      const { id, method } = body;
      // The client's answer to an approval asked here.
      const pending = method === undefined && typeof id === 'string' ? answers.get(id) : undefined;
      if (pending !== undefined && pending.sessionId === sessionId) {
        answers.delete(id as string);
        session.touch();
        const { result, error } = body;
        if (isPlainObject(result) && ANSWER_ACTIONS.has(result.action)) {
          const content = result.content;
          pending.resolve({
            action: result.action as ElicitationAnswer['action'],
            ...(isPlainObject(content) ? { content } : {}),
          } as ElicitationAnswer);
        } else {
          pending.reject(
            new Error(
              isPlainObject(error) && typeof error.message === 'string'
                ? `the client answered the approval request with an error: ${error.message}`
                : 'the client answered the approval request with something that is not an elicitation result',
            ),
          );
        }
        return accepted(res);
      }
      if (method === 'notifications/cancelled' && isPlainObject(body.params)) {
        const requestId = body.params.requestId;
        const controller = isRequestId(requestId)
          ? running.get(runningKey(sessionId, requestId))
          : undefined;
        if (controller === undefined) return false;
        session.touch();
        controller.abort(body.params.reason ?? 'cancelled by the client');
        return accepted(res);
      }
      if (method !== 'tools/call' || !isRequestId(id) || hasModernEnvelope(body.params)) {
        return false;
      }
      const version = session.server.getNegotiatedProtocolVersion();
      if (version === undefined || isModernRevision(version)) return false;
      // A request that names another revision than the session's is the SDK's to judge.
      if (protocolVersion !== undefined && protocolVersion !== version) return false;
      // A request its schema refuses, or with the id of a call under way, is the SDK's to
      // answer (over HTTP it refuses a bad message before any handler, in its own words).
      const call = wireCallParams(body.params);
      if (!call.ok || running.has(runningKey(sessionId, id))) return false;
      const exchange: Exchange = { res, sessionId, streaming: false };
      session.touch();
      run(session, exchange, id, call).catch((error: unknown) =>
        options.onError(error instanceof Error ? error : new Error(String(error))),
      );
      return true;
    },
  };
}
