import type { McpServerConnection } from '../mcp/index.js';
import { UpstreamUnavailableError } from '../mcp/index.js';
import type { Tool, ToolContext } from '../tool/index.js';

/**
 * Longest a call waits for its server to be reconnected before it ends
 * `upstream_unavailable` after all, in milliseconds (and never past its own timeout).
 */
export const RECONNECT_WAIT_MS = 5_000;

/**
 * Resolves once `connection` is ready again; rejects with `error` when it closes for good,
 * and with the signal's reason when the call is cancelled or times out first.
 */
export function whenReconnected(
  connection: McpServerConnection,
  signal: AbortSignal,
  error: Error,
): Promise<void> {
  if (connection.status === 'ready') return Promise.resolve();
  if (connection.status === 'closed') return Promise.reject(error);
  return new Promise<void>((resolve, reject) => {
    const done = (): void => {
      stop();
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      done();
      reject(signal.reason);
    };
    const stop = connection.on('status', ({ status }) => {
      if (status === 'ready') {
        done();
        resolve();
      } else if (status === 'closed') {
        done();
        reject(error);
      }
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The `execute` of a gateway tool whose calls are safe to repeat (a trusted read-only or
 * idempotent tool): a call that fails with `upstream_unavailable` (the server crashed, the
 * connection dropped) waits for the reconnect, at most {@link RECONNECT_WAIT_MS}, and is
 * sent once more, all within the call's own timeout and cancellation (its signal). Any other failure, or a second loss, ends the
 * call as it came.
 */
export function retryAfterReconnect(
  execute: Tool['execute'],
  connection: () => McpServerConnection | undefined,
): Tool['execute'] {
  return async (args: Record<string, unknown>, context: ToolContext) => {
    try {
      return await execute(args, context);
    } catch (error) {
      const upstream = connection();
      if (!(error instanceof UpstreamUnavailableError) || upstream === undefined) throw error;
      if (context.signal.aborted) throw error;
      const waited = AbortSignal.any([context.signal, AbortSignal.timeout(RECONNECT_WAIT_MS)]);
      try {
        await whenReconnected(upstream, waited, error);
      } catch (reason) {
        // The wait ran out: the call ends with the loss it came with.
        throw context.signal.aborted ? reason : error;
      }
      return execute(args, { ...context, attempt: context.attempt + 1 });
    }
  };
}
