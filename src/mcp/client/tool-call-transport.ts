import {
  type CallToolResult,
  type JSONRPCMessage,
  type MessageExtraInfo,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { isPlainObject, type ToolCancellation } from '../../tool/index.js';
import { plainCallToolResult } from '../server/plain-call-tool-result.js';
import { TransportLayer } from './transport-layer.js';

/** One `tools/call` as {@link ToolCallTransport.callTool} sends it. */
export interface RawCallParams {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** Sent as `_meta.progressToken`; the server's progress for it is routed by the caller. */
  readonly progressToken?: string;
  /** More keys for `_meta` (a `traceparent`). */
  readonly meta?: Readonly<Record<string, string>>;
}

interface Pending {
  readonly resolve: (result: CallToolResult) => void;
  readonly reject: (error: unknown) => void;
  /** The call's cancellation, and its listener, removed once the call is settled. */
  readonly signal: ToolCancellation;
  readonly onAbort: () => void;
}

/** The options of the abort listener, one object for every call. */
const ONCE = { once: true } as const;

/** Ids of requests sent here; the SDK numbers its own, so the two never meet. */
const ID_PREFIX = 'hintgate-call-';

/**
 * True when the SDK's 2025-11-25 schema would accept `result` unchanged (see
 * `plainCallToolResult`, shared with the servers' fast paths): text blocks of `type` and
 * `text` only, and besides `content` only a boolean `isError`, a plain `_meta` without the
 * keys the schema checks and a plain-object `structuredContent`.
 */
export function isPlainCallToolResult(result: unknown): result is CallToolResult {
  return plainCallToolResult(result) !== undefined;
}

/** The result of a `tools/call` answer, or the error it stands for. */
function resultOf(response: Readonly<Record<string, unknown>>): CallToolResult | Error {
  if ('error' in response) {
    const error = response.error as { code?: unknown; message?: unknown; data?: unknown };
    return new ProtocolError(
      typeof error?.code === 'number' ? error.code : -32603,
      typeof error?.message === 'string'
        ? error.message
        : 'the server sent an error without a message',
      error?.data,
    );
  }
  const { result } = response;
  const plain = plainCallToolResult(result);
  if (plain !== undefined) return plain as CallToolResult;
  // The SDK's schema here serves both eras; the 2025 one also wants an object.
  const structured = isPlainObject(result) ? result.structuredContent : undefined;
  if (structured !== undefined && !isPlainObject(structured)) {
    return new SdkError(
      SdkErrorCode.InvalidResult,
      'Invalid result for tools/call: structuredContent: it must be an object',
    );
  }
  const parsed = CallToolResultSchema.safeParse(result);
  if (parsed.success) return parsed.data as CallToolResult;
  return new SdkError(
    SdkErrorCode.InvalidResult,
    `Invalid result for tools/call: ${parsed.error.issues
      .map(
        (issue) =>
          `${issue.path.length === 0 ? 'the result' : issue.path.join('.')}: ${issue.message}`,
      )
      .join('; ')}`,
  );
}

/**
 * A transport layer for the SDK client that can also send `tools/call` requests itself
 * ({@link ToolCallTransport.callTool}) and take their answers off the wire before the
 * client sees them: such a call skips the client's request bookkeeping and its second
 * validation of the result, which cost as much as the rest of a gateway's relay (measured
 * in bench/gateway.ts). It is a layer the client connects to, so every other message
 * passes through unchanged in both directions: the handshake, notifications (progress
 * included, which the client's handler routes by token), the client's own requests, and
 * closing.
 *
 * For a 2025-era connection only (one that negotiated with `initialize`): 2026-07-28
 * requests carry an envelope and their results may ask for input, so they stay with the
 * client. What it relies on of the SDK (its `CallToolResult` schema, the shape of a
 * request) is pinned with the SDK's exact versions in package.json and checked by
 * sdk-pins.test.ts.
 */
export class ToolCallTransport extends TransportLayer {
  readonly #pending = new Map<string, Pending>();
  #nextId = 0;
  #closed = false;

  /**
   * Sends one `tools/call` and resolves to the server's result, checked against the SDK's
   * own `CallToolResult` schema. A JSON-RPC error answer rejects with a `ProtocolError`;
   * the signal's abort tells the server with `notifications/cancelled` and rejects with its
   * reason; a connection that closes rejects with an `SdkError` (`ConnectionClosed`).
   */
  callTool(params: RawCallParams, signal: ToolCancellation): Promise<CallToolResult> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#closed) {
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    }
    this.#nextId += 1;
    const id = `${ID_PREFIX}${this.#nextId}`;
    const pending = this.#pending;
    const transport = this.inner;
    return new Promise<CallToolResult>((resolve, reject) => {
      const onAbort = (): void => {
        if (!pending.delete(id)) return;
        reject(signal.reason);
        transport
          .send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String(signal.reason) },
          })
          .catch(() => {
            // The connection is going; nothing is left to cancel.
          });
      };
      // One entry per call, no wrappers: whoever settles it takes it out first (#take).
      pending.set(id, { resolve, reject, signal, onAbort });
      signal.addEventListener('abort', onAbort, ONCE);
      let sent: Promise<void>;
      try {
        sent = transport.send({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params:
            params.progressToken === undefined && params.meta === undefined
              ? { name: params.name, arguments: params.arguments }
              : {
                  name: params.name,
                  arguments: params.arguments,
                  _meta: {
                    ...params.meta,
                    ...(params.progressToken === undefined
                      ? {}
                      : { progressToken: params.progressToken }),
                  },
                },
        });
      } catch (error) {
        // A message that cannot be serialized (a cycle, a BigInt) throws before it is sent.
        this.#sendFailed(id, error);
        return;
      }
      sent.catch((error: unknown) => this.#sendFailed(id, error));
    });
  }

  /** Takes the call `id` out of the table and stops following its signal; undefined when settled. */
  #take(id: string): Pending | undefined {
    const waiting = this.#pending.get(id);
    if (waiting === undefined) return undefined;
    this.#pending.delete(id);
    waiting.signal.removeEventListener('abort', waiting.onAbort);
    return waiting;
  }

  /** The call `id` could not be sent: rejected, unless it was settled meanwhile. */
  #sendFailed(id: string, error: unknown): void {
    const waiting = this.#take(id);
    if (waiting === undefined) return;
    // The SDK's own errors (an HTTP status, a closed connection) say what happened;
    // anything else means the message never left.
    waiting.reject(
      error instanceof SdkError || error instanceof UnauthorizedError
        ? error
        : new SdkError(
            SdkErrorCode.SendFailed,
            `sending tools/call failed: ${error instanceof Error ? error.message : String(error)}`,
            undefined,
            { cause: error },
          ),
    );
  }

  /** A message from the server: the answer of a call sent here, or the client's. */
  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const { id } = message as { id?: unknown };
    if (typeof id === 'string' && !('method' in message)) {
      const waiting = this.#take(id);
      if (waiting !== undefined) {
        const outcome = resultOf(message as Readonly<Record<string, unknown>>);
        if (outcome instanceof Error) waiting.reject(outcome);
        else waiting.resolve(outcome);
        return;
      }
    }
    super.receive(message, extra);
  }

  protected override closed(): void {
    this.#closed = true;
    const gone = [...this.#pending.values()];
    this.#pending.clear();
    for (const waiting of gone) {
      waiting.signal.removeEventListener('abort', waiting.onAbort);
      waiting.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    }
    super.closed();
  }
}
