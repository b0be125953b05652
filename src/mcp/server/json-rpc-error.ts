import { ProtocolError } from '@modelcontextprotocol/server';

/**
 * The `error` of a JSON-RPC error response for what a `tools/call` handler threw, as the
 * SDK's dispatch words it: a `ProtocolError`'s code, message and data, else -32603
 * (internal error) with the error's message. For the transport layers that answer calls
 * themselves.
 */
export function jsonRpcError(error: unknown): Record<string, unknown> {
  if (error instanceof ProtocolError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  return { code: -32603, message: error instanceof Error ? error.message : String(error) };
}
