/**
 * Thrown by a remote tool when its MCP server said it is rate limited (HTTP 429, or a tool
 * error saying so) and its window does not end before the call's timeout. Its `code` makes
 * the runtime end the call `rate_limited`; the message says when to retry.
 */
export class UpstreamRateLimitedError extends Error {
  /** Always `rate_limited`: the runtime's failure code for this error. */
  readonly code = 'rate_limited' as const;
  /** Name of the origin (the MCP server) that is rate limited. */
  readonly origin: string;
  /** When the server's window ends, as a `Date.now()` time. */
  readonly retryAt: number;

  constructor(origin: string, retryAt: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamRateLimitedError';
    this.origin = origin;
    this.retryAt = retryAt;
  }
}
