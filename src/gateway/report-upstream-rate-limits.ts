import type { AuditEvent } from '../audit/index.js';
import type { McpServerConnection } from '../mcp/index.js';

/** Where {@link reportUpstreamRateLimits} tells what it sees. */
export interface UpstreamRateLimitReports {
  /** One line for the person running the gateway. */
  readonly notice: (message: string) => void;
  /** Records an audit event. */
  readonly audit: (event: AuditEvent) => void;
}

/**
 * Tells each rate-limit window of a server's connection (its HTTP 429, or a tool error
 * saying it is rate limited) on `notice`, and records it as an `upstream.rate_limited`
 * audit event naming the server and until when its calls wait. Returns the unsubscribe.
 */
export function reportUpstreamRateLimits(
  server: string,
  connection: McpServerConnection,
  reports: UpstreamRateLimitReports,
): () => void {
  return connection.on('rateLimited', ({ until, retryAfterMs, source }) => {
    const how =
      source === 'http' ? 'answered HTTP 429' : 'answered a tool error saying it is rate limited';
    const when = new Date(until).toISOString();
    const message = `server "${server}" ${how}; its calls wait until ${when}.`;
    reports.notice(message);
    reports.audit({
      type: 'upstream.rate_limited',
      time: new Date().toISOString(),
      origin: server,
      until: when,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      message,
    });
  });
}
