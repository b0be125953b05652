import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

/**
 * Thrown by a remote tool when its MCP server cannot be reached: the server is down and
 * being reconnected, or it went away while the call ran. Its `code` makes the runtime end
 * the call `upstream_unavailable`.
 */
export class UpstreamUnavailableError extends Error {
  /** Always `upstream_unavailable`: the runtime's failure code for this error. */
  readonly code = 'upstream_unavailable' as const;
  /** Name of the origin (the MCP server) that could not be reached. */
  readonly origin: string;

  constructor(origin: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamUnavailableError';
    this.origin = origin;
  }
}

const LOST_CONNECTION_CODES: ReadonlySet<string> = new Set([
  SdkErrorCode.ConnectionClosed,
  SdkErrorCode.NotConnected,
  SdkErrorCode.SendFailed,
]);

const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

const causeCode = (error: unknown): unknown =>
  (error as { cause?: { code?: unknown } } | null)?.cause?.code;

/**
 * True when a failed request says the connection itself is gone (closed, refused, reset,
 * an HTTP session the server no longer knows, a 5xx), as opposed to an error the server
 * answered with. Those answers (JSON-RPC errors) are the tool's failure, not the link's.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof ProtocolError) return false;
  if (error instanceof SdkHttpError) return error.status === 404 || error.status >= 500;
  if (error instanceof SdkError) return LOST_CONNECTION_CODES.has(error.code);
  if (error instanceof TypeError && error.message === 'fetch failed') return true;
  const code = (error as { code?: unknown } | null)?.code ?? causeCode(error);
  return typeof code === 'string' && NETWORK_CODES.has(code);
}
