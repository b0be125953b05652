import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Server,
  Transport,
} from '@modelcontextprotocol/server';
import { AbortScope } from '../../schedule/index.js';
import { isPlainObject } from '../../tool/index.js';
import { TransportLayer } from '../client/transport-layer.js';
import { isModernRevision } from '../protocol-revision.js';
import type { ApprovalChannel } from './approval-channel.js';
import type { McpToolServer } from './create-mcp-tool-server.js';
import { elicitationThrough } from './elicitation-channel.js';
import { jsonRpcError } from './json-rpc-error.js';
import {
  callResultResponse,
  duplicateCallId,
  hasModernEnvelope,
  invalidCallParams,
  isRequestId,
  type WireCallParams,
  wireCallParams,
} from './tool-call-wire.js';

/** Options of {@link StdioCallLayer}. */
export interface StdioCallLayerOptions {
  /** The connection's transport: every message passes through this layer. */
  readonly inner: Transport;
  /** The tool server whose one `tools/call` handler answers the calls. */
  readonly toolServer: McpToolServer;
  /** Called with errors that cannot reach the client. */
  readonly onError: (error: Error) => void;
}

/** The key of a request id in the table of calls under way: 1 and "1" are two ids. */
const idKey = (id: string | number): string | number => (typeof id === 'number' ? id : `s${id}`);

/**
 * The stdio transport layer of `tools/call` on a 2025-11-25 connection: the transport
 * `serveMcpStdio` gives the SDK's `serveStdio`, wrapping the connection's
 * {@link StdioDownstreamTransport}. Once the connection is open (its 2025-era instance
 * exists, has negotiated a 2025 revision, and `notifications/initialized` passed here in an
 * earlier turn of the event loop), every `tools/call` request goes from the line, parsed
 * once, to the tool server's one handler (`McpToolServer.callTool`) and its answer back to
 * the client, without the SDK's per-request dispatch: its validation of the request and the
 * result against zod schemas, its abort controllers and its response bookkeeping. What the
 * SDK does on its path is done here the same way:
 *
 * - params are checked as its schema checks them (the common shapes quickly, any other by
 *   that schema); a request it refuses gets its -32602 (invalid params) and runs nothing;
 * - a progress token in `_meta` gets `notifications/progress`, and `_meta` reaches
 *   telemetry; an approval is asked with `elicitation/create` through the instance;
 * - `notifications/cancelled` naming a call under way aborts it, and no response is sent;
 *   a connection that closes aborts every call under way;
 * - a result goes out as the SDK's `CallToolResult` schema passes it on (a plain result as
 *   it is, any other checked by the schema; a result it refuses gets -32602), a thrown
 *   error as the SDK words it.
 *
 * Every other message passes through unchanged both ways, as do `tools/call` requests that
 * arrive before the connection is open (they are the SDK's, in order with the handshake)
 * and requests carrying a 2026-07-28 envelope. A second request with the id of a call under
 * way is refused with -32600 (invalid request).
 */
export class StdioCallLayer extends TransportLayer {
  readonly #toolServer: McpToolServer;
  readonly #onError: (error: Error) => void;
  readonly #running = new Map<string | number, AbortScope>();
  #server: Server | undefined;
  /** How a call's approval is asked: `elicitation/create` through the instance, made once. */
  #channels: readonly ApprovalChannel[] = [];
  #initializedSeen = false;
  #open = false;

  constructor(options: StdioCallLayerOptions) {
    super(options.inner);
    this.#toolServer = options.toolServer;
    this.#onError = options.onError;
  }

  /** The connection's 2025-era instance, made by the tool server; calls open with it. */
  serve(server: Server): void {
    this.#server = server;
    this.#channels = [elicitationThrough(server)];
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const { method } = message as { method?: unknown };
    if (method === 'tools/call' && this.#open && 'id' in message) {
      if (this.#take(message as Readonly<Record<string, unknown>>)) return;
    } else if (method === 'notifications/cancelled' && this.#running.size > 0) {
      if (this.#cancel((message as { params?: unknown }).params)) return;
    } else if (method === 'notifications/initialized' && !this.#initializedSeen) {
      this.#initializedSeen = true;
      // The SDK handles what it was given in this turn (the handshake, calls before it) in
      // microtasks; calls of later turns may not overtake them.
      setImmediate(() => {
        this.#open = true;
      });
    }
    super.receive(message, extra);
  }

  protected override closed(): void {
    this.#open = false;
    const calls = [...this.#running.values()];
    this.#running.clear();
    for (const controller of calls) controller.abort(new Error('the client connection closed'));
    super.closed();
  }

  /** Runs a `tools/call` here and says so, or leaves it to the SDK (false). */
  #take(request: Readonly<Record<string, unknown>>): boolean {
    const server = this.#server;
    const version = server?.getNegotiatedProtocolVersion();
    if (server === undefined || version === undefined || isModernRevision(version)) return false;
    const { id, params } = request;
    if (!isRequestId(id) || hasModernEnvelope(params)) return false;
    const call = wireCallParams(params);
    if (!call.ok) {
      this.#answer(invalidCallParams(id, call.message));
      return true;
    }
    const key = idKey(id);
    if (this.#running.has(key)) {
      this.#answer(duplicateCallId(id));
      return true;
    }
    this.#run(server, id, key, call).catch((error: unknown) =>
      this.#onError(error instanceof Error ? error : new Error(String(error))),
    );
    return true;
  }

  async #run(
    server: Server,
    id: string | number,
    key: string | number,
    call: WireCallParams,
  ): Promise<void> {
    // A scope, not an AbortController: the runtime reads no more of it, and it costs a
    // fraction of an AbortSignal to make (measured: about 5 µs a call).
    const controller = new AbortScope();
    this.#running.set(key, controller);
    const { progressToken } = call;
    let response: JSONRPCMessage;
    try {
      // One shape for every call (absent fields undefined): no object spreads per call.
      const result = await this.#toolServer.callTool(server, {
        id,
        name: call.name,
        arguments: call.arguments,
        signal: controller,
        channels: this.#channels,
        meta: call.meta,
        progress:
          progressToken === undefined
            ? undefined
            : (progress) =>
                this.inner.send({
                  jsonrpc: '2.0',
                  method: 'notifications/progress',
                  params: { progressToken, ...progress },
                }),
      });
      response = callResultResponse(id, result);
    } catch (error) {
      response = { jsonrpc: '2.0', id, error: jsonRpcError(error) } as JSONRPCMessage;
    } finally {
      if (this.#running.get(key) === controller) this.#running.delete(key);
    }
    // Cancelled by the client or cut off with the connection: no response, as the SDK's.
    if (controller.aborted) return;
    this.#answer(response);
  }

  #answer(message: JSONRPCMessage): void {
    this.inner
      .send(message)
      .catch((error: unknown) =>
        this.#onError(error instanceof Error ? error : new Error(String(error))),
      );
  }

  /** Aborts the call a `notifications/cancelled` names, if it runs here; says so. */
  #cancel(params: unknown): boolean {
    if (!isPlainObject(params)) return false;
    const { requestId, reason } = params;
    const controller = isRequestId(requestId) ? this.#running.get(idKey(requestId)) : undefined;
    if (controller === undefined) return false;
    controller.abort(typeof reason === 'string' ? reason : 'cancelled by the client');
    return true;
  }
}
