import { HintgateError } from '../errors/index.js';
import type { McpConnectionEvents, McpServerConnection } from '../mcp/index.js';

/** Options of {@link nextEvent}. */
export interface NextEventOptions<Payload> {
  /** Which event to take; default the first of its type. */
  readonly accept?: (payload: Payload) => boolean;
  /** How long to wait, in milliseconds of wall time, before failing. Default 10000. */
  readonly timeoutMs?: number;
}

/**
 * Resolves with the next event of `type` from an MCP server connection of `hintgate/mcp`
 * (`connectMcpServer`) that `accept` takes, and unsubscribes; rejects with an `Error` after
 * `timeoutMs`. Call it before the action that causes the event:
 * `const ready = nextEvent(connection, 'status', { accept: (e) => e.status === 'ready' });`
 * then act, then `await ready`.
 */
export function nextEvent<E extends keyof McpConnectionEvents>(
  connection: Pick<McpServerConnection, 'on'>,
  type: E,
  options: NextEventOptions<McpConnectionEvents[E]> = {},
): Promise<McpConnectionEvents[E]> {
  const { accept = () => true, timeoutMs = 10_000 } = options;
  if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0)) {
    throw new HintgateError(
      'invalid_option',
      `nextEvent: timeoutMs is ${JSON.stringify(timeoutMs)}; use a number of milliseconds, 0 or more`,
    );
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching "${type}" event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = connection.on(type, (payload) => {
      if (!accept(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}
