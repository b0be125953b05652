import {
  type CallToolResult,
  type Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Transport,
} from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { isPlainObject } from '../../tool/index.js';

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
  call(params: RawCallParams, signal: AbortSignal): Promise<CallToolResult>;
}

interface Pending {
  readonly resolve: (result: CallToolResult) => void;
  readonly reject: (error: unknown) => void;
}

/** Ids of requests sent here; the SDK numbers its own, so the two never meet. */
const ID_PREFIX = 'hintgate-call-';

/**
 * True when the SDK's schema would accept `result` unchanged: text blocks of `type` and
 * `text` only, and besides `content` only a boolean `isError`, an object `_meta` or an
 * object `structuredContent`. What this does not recognize is checked by the schema itself.
 */
export function isPlainCallToolResult(result: unknown): result is CallToolResult {
  if (!isPlainObject(result) || !Array.isArray(result.content)) return false;
  for (const key in result) {
    const value = result[key];
    if (key === 'content') continue;
    if (key === 'isError' && typeof value === 'boolean') continue;
    if ((key === '_meta' || key === 'structuredContent') && isPlainObject(value)) continue;
    return false;
  }
  for (const block of result.content as readonly unknown[]) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') {
      return false;
    }
    for (const key in block) if (key !== 'type' && key !== 'text') return false;
  }
  return true;
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
  if (isPlainCallToolResult(result)) return result;
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
        transport
          .send({
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
          })
          .catch((error: unknown) => {
            const waiting = pending.get(id);
            if (waiting === undefined) return;
            pending.delete(id);
            waiting.reject(
              new SdkError(
                SdkErrorCode.SendFailed,
                `sending tools/call failed: ${error instanceof Error ? error.message : String(error)}`,
                undefined,
                { cause: error },
              ),
            );
          });
      });
    },
  };
}
