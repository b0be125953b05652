import type { Server } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../tool/json-schema.js';
import { isModernRevision } from '../protocol-revision.js';
import type { DirectCallOutcome, DirectCallParams, DirectToolCalls } from './direct-tool-calls.js';
import { isRequestId, plainCallParams } from './plain-call-params.js';
import { plainCallToolResult } from './plain-call-tool-result.js';

/** Options of {@link createStdioFastCalls}. */
export interface StdioFastCallsOptions {
  /** The tool server's direct `tools/call` entry. */
  readonly calls: DirectToolCalls;
  /**
   * Writes one response line (newline included) to the client, through the stream the SDK
   * writes to: `now`, at once; otherwise with the other writes of this turn of the event
   * loop.
   */
  readonly write: (line: string, now: boolean) => void;
  /** Passes a client's line (without its newline) on to the SDK, as if it came now. */
  readonly pass: (line: string) => void;
  /** Called with errors that cannot reach the client. */
  readonly onError: (error: Error) => void;
}

/** What {@link createStdioFastCalls} returns. */
export interface StdioFastCalls {
  /**
   * Serves the connection of `server`, the SDK instance made for it. The fast path opens
   * once that instance has handled `notifications/initialized` on a 2025-era revision, and
   * closes with the instance (calls under way are aborted and not answered, as the SDK's).
   */
  attach(server: Server): void;
  /**
   * The line guard's `take`: handles a JSON-RPC message here, and says so (true), or leaves
   * it to the SDK (false). See `JsonRpcLineGuardOptions.take` for `behindPassed`.
   */
  take(message: Readonly<Record<string, unknown>>, line: string, behindPassed: boolean): boolean;
}

/** Whether the SDK's schema accepts a notification's `_meta` (its checked keys, that is). */
const isRequestMeta = (meta: unknown): boolean => {
  if (meta === undefined) return true;
  if (!isPlainObject(meta)) return false;
  const token = meta.progressToken;
  const task = meta['io.modelcontextprotocol/related-task'];
  return (
    (token === undefined || isRequestId(token)) &&
    (task === undefined || (isPlainObject(task) && typeof task.taskId === 'string'))
  );
};

/** The response line of a result, or undefined when the SDK must check the result. */
const responseLine = (id: string | number, result: unknown): string | undefined => {
  const plain = plainCallToolResult(result);
  if (plain === undefined) return undefined;
  try {
    // The key order and framing of the SDK's own responses.
    return `${JSON.stringify({ result: plain, jsonrpc: '2.0', id })}\n`;
  } catch {
    // A value JSON cannot hold: the SDK fails on it the way it does on its own path.
    return undefined;
  }
};

/**
 * The stdio fast path of `tools/call`. On a 2025-era connection, a call of the plain shape
 * (a name and object arguments, no `_meta`) runs straight through the tool server's direct
 * entry, as the SDK's handler would run it, without the SDK's per-message dispatch and
 * validation. Approvals are asked with `elicitation/create` through the connection's SDK
 * instance; `notifications/cancelled` for such a call aborts it and no response is sent, as
 * on the SDK's path. A result the SDK's schema certainly accepts ({@link
 * plainCallToolResult}) is written here: at once when no other fast call is under way,
 * otherwise with the writes of the turn, so that calls finishing together leave in one
 * write. Any other result, and a call that threw, is handed to the SDK with the request
 * itself, so that it is validated and answered exactly as on its own path. Everything else
 * goes to the SDK.
 *
 * Ordering. A call taken here enters the runtime synchronously, while the reader is still
 * on its line; a line passed to the SDK reaches its handler only some microtasks later
 * (`serveStdio` dispatches one queued message per microtask turn, and the SDK calls a
 * handler from a resolved promise). So taking the calls of a chunk and passing its other
 * lines in the same order is not enough: a plain `tools/call` taken right behind a
 * `tools/call` with a progress token (passed to the SDK) would reach the runtime's lock
 * manager first and could run a READ(a) before the WRITE(a) the client sent before it; a
 * call right behind `initialize` and `notifications/initialized` would run before they were
 * handled. Hence a call is taken only when no line passed to the SDK may still be on its
 * way: none was passed in this turn of the event loop (the guard's `behindPassed`; the
 * SDK's dispatch on a pinned 2025-era connection is microtasks only, all run before the
 * next turn), and only once the SDK has handled `notifications/initialized` on this
 * connection. A call taken before a line passed later keeps its place, since it entered the
 * runtime first. Cancellations are taken whenever they name a call under way here: they
 * concern that call only.
 */
export function createStdioFastCalls(options: StdioFastCallsOptions): StdioFastCalls {
  const running = new Map<string | number, AbortController>();
  let current: Server | undefined;
  let initialized = false;

  const detach = (): void => {
    current = undefined;
    initialized = false;
    const controllers = [...running.values()];
    running.clear();
    for (const controller of controllers) {
      controller.abort(new Error('the client connection closed'));
    }
  };

  /** The connection's instance, when the fast path is open for it. */
  const openServer = (): Server | undefined => {
    if (current === undefined || !initialized) return undefined;
    const version = current.getNegotiatedProtocolVersion();
    return version !== undefined && !isModernRevision(version) ? current : undefined;
  };

  const run = async (
    server: Server,
    id: string | number,
    params: DirectCallParams,
    line: string,
  ): Promise<void> => {
    const controller = new AbortController();
    running.set(id, controller);
    let outcome: DirectCallOutcome;
    try {
      outcome = {
        ok: true,
        result: await options.calls.call(server, id, params, controller.signal),
      };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      if (running.get(id) === controller) running.delete(id);
    }
    // Cancelled by the client or cut off with the connection: no response, as the SDK's.
    if (controller.signal.aborted) return;
    const response = outcome.ok ? responseLine(id, outcome.result) : undefined;
    if (response !== undefined) {
      options.write(response, running.size === 0);
      return;
    }
    options.calls.handOff(server, id, outcome);
    options.pass(line);
  };

  const cancel = (params: unknown): boolean => {
    if (running.size === 0 || !isPlainObject(params)) return false;
    const { requestId, reason } = params;
    const controller = isRequestId(requestId) ? running.get(requestId) : undefined;
    if (controller === undefined) return false;
    // A notification the SDK's schema refuses cancels nothing there; nor here.
    if ((reason !== undefined && typeof reason !== 'string') || !isRequestMeta(params._meta)) {
      return false;
    }
    controller.abort(reason);
    return true;
  };

  return {
    attach(server) {
      detach();
      current = server;
      const { oninitialized, onclose } = server;
      server.oninitialized = () => {
        if (current === server) initialized = true;
        oninitialized?.();
      };
      server.onclose = () => {
        if (current === server) detach();
        onclose?.();
      };
    },
    take(message, line, behindPassed) {
      if (message.method === 'notifications/cancelled') {
        return !('id' in message) && cancel(message.params);
      }
      if (behindPassed || message.method !== 'tools/call') return false;
      const { id } = message;
      if (!isRequestId(id) || running.has(id)) return false;
      const server = openServer();
      const params = server === undefined ? undefined : plainCallParams(message.params);
      if (server === undefined || params === undefined) return false;
      run(server, id, params, line).catch((error: unknown) =>
        options.onError(error instanceof Error ? error : new Error(String(error))),
      );
      return true;
    },
  };
}
