import {
  type CallToolResult,
  type Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Transport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import type { AbortWatch } from '../../schedule/abort-scope.js';
import { isPlainObject } from '../../tool/index.js';
import { plainCallToolResult } from '../server/plain-call-tool-result.js';

/** One `tools/call` as {@link RawToolCalls.call} sends it. */
export interface RawCallParams {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** Sent as `_meta.progressToken`; the server's progress for it is routed by the caller. */
  readonly progressToken?: string;
}

/** `tools/call` sent and answered on a connection's transport, past the SDK's request layer. */
export interface RawToolCalls {
  /**
   * Sends one `tools/call` and resolves to the server's result, checked against the SDK's
   * own `CallToolResult` schema. A JSON-RPC error answer rejects with a `ProtocolError`;
   * the signal's abort tells the server with `notifications/cancelled` and rejects with its
   * reason; a connection that closes rejects with an `SdkError` (`ConnectionClosed`).
   */
  call(params: RawCallParams, signal: AbortWatch): Promise<CallToolResult>;
}

interface Pending {
  readonly resolve: (result: CallToolResult) => void;
  readonly reject: (error: unknown) => void;
}

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
 * Sends `tools/call` requests straight on the transport of a connected 2025-era client
 * (one that negotiated with `initialize`), and takes their answers off it before the SDK
 * sees them: each call skips the SDK's request bookkeeping and its second validation of the
 * result, which cost as much as the rest of a gateway's relay. Everything else on the
 * connection stays the SDK's: the handshake, notifications (progress included, which the
 * client's handler routes by token), the other requests, and reconnection.
 *
 * Returns `undefined` for a 2026-07-28 connection, whose requests carry an envelope and
 * whose results may ask for input: those stay on the SDK's path.
 */
export function attachRawToolCalls(client: Client, transport: Transport): RawToolCalls | undefined {
  if (client.getProtocolEra() !== 'legacy') return undefined;
  const sdkMessage = transport.onmessage;
  const sdkClose = transport.onclose;
  if (sdkMessage === undefined) return undefined;
  const pending = new Map<string, Pending>();
  let nextId = 0;
  let closed = false;

  transport.onmessage = (message, extra) => {
    const { id } = message as { id?: unknown };
    if (typeof id === 'string' && !('method' in message)) {
      const waiting = pending.get(id);
      if (waiting !== undefined) {
        pending.delete(id);
        const outcome = resultOf(message as Readonly<Record<string, unknown>>);
        if (outcome instanceof Error) waiting.reject(outcome);
        else waiting.resolve(outcome);
        return;
      }
    }
    sdkMessage.call(transport, message, extra);
  };
  transport.onclose = () => {
    closed = true;
    const gone = [...pending.values()];
    pending.clear();
    for (const waiting of gone) {
      waiting.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    }
    sdkClose?.call(transport);
  };

  return {
    call(params, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (closed) {
        return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
      }
      nextId += 1;
      const id = `${ID_PREFIX}${nextId}`;
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
        const settle = (): void => signal.removeEventListener('abort', onAbort);
        pending.set(id, {
          resolve: (result) => {
            settle();
            resolve(result);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
        });
        signal.addEventListener('abort', onAbort, { once: true });
        const failed = (error: unknown): void => {
          const waiting = pending.get(id);
          if (waiting === undefined) return;
          pending.delete(id);
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
        };
        let sent: Promise<void>;
        try {
          sent = transport.send({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
              name: params.name,
              arguments: params.arguments,
              ...(params.progressToken === undefined
                ? {}
                : { _meta: { progressToken: params.progressToken } }),
            },
          });
        } catch (error) {
          // A message that cannot be serialized (a cycle, a BigInt) throws before it is sent.
          failed(error);
          return;
        }
        sent.catch(failed);
      });
    },
  };
}
