import type { McpServerConnection } from '../mcp/index.js';
import { UpstreamUnavailableError } from '../mcp/index.js';
import { anySignal, type Clock, systemClock } from '../schedule/index.js';
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

/** Options of {@link retryAfterReconnect}. */
export interface RetryAfterReconnectOptions {
  /** The connection to the tool's server, as it is when a call fails (undefined: none). */
  readonly connection: () => McpServerConnection | undefined;
  /** Times the wait for the reconnect. Default the system clock. */
  readonly clock?: Clock;
}

/**
 * The `execute` of a gateway tool whose calls are safe to repeat (a trusted read-only or
 * idempotent tool): a call that fails with `upstream_unavailable` (the server crashed, the
 * connection dropped) waits for the reconnect, at most {@link RECONNECT_WAIT_MS} on `clock`
 * (default the system clock), and is sent once more, all within the call's own timeout and
 * cancellation (its signal). Any other failure, or a second loss, ends the call as it came.
 */
export function retryAfterReconnect(
  execute: Tool['execute'],
  options: RetryAfterReconnectOptions,
): Tool['execute'] {
  const { connection, clock = systemClock } = options;
  /** What follows a failed first attempt: wait for the reconnect and send once more, or not. */
  const retry = async (
    error: unknown,
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<unknown> => {
    const upstream = connection();
    if (!(error instanceof UpstreamUnavailableError) || upstream === undefined) throw error;
    if (context.signal.aborted) throw error;
    const timeout = new AbortController();
    const timer = clock.setTimeout(
      () => timeout.abort(new DOMException('The reconnect wait ran out', 'TimeoutError')),
      RECONNECT_WAIT_MS,
    );
    const waited = anySignal([context.signal, timeout.signal]);
    try {
      await whenReconnected(upstream, waited.signal, error);
    } catch (reason) {
      // The wait ran out: the call ends with the loss it came with.
      throw context.signal.aborted ? reason : error;
    } finally {
      clock.clearTimeout(timer);
      waited.dispose();
    }
    return execute(args, { ...context, attempt: context.attempt + 1 });
  };
  // The first attempt is chained, not awaited in an async frame: a call that succeeds pays
  // for one promise reaction, not a frame and its turns.
  return (args: Record<string, unknown>, context: ToolContext) => {
    let running: unknown;
    try {
      running = execute(args, context);
    } catch (error) {
      return retry(error, args, context);
    }
    if (running instanceof Promise) {
      return running.catch((error: unknown) => retry(error, args, context));
    }
    // Another thenable is awaited as before; a plain value is the answer as it is.
    if (typeof (running as { then?: unknown } | null)?.then === 'function') {
      return Promise.resolve(running).catch((error: unknown) => retry(error, args, context));
    }
    return running;
  };
}
