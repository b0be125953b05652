import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { HintgateError } from '../../errors/index.js';
import type { McpServerConnection } from './connection-events.js';
import { McpConnection } from './mcp-connection.js';
import {
  type CheckedMcpServerOptions,
  type ConnectMcpServerOptions,
  checkMcpServerOptions,
} from './mcp-server-options.js';
import { redactUrl, redactUrlIn } from './redact-url.js';

const STDERR_LINES = 20;

const describeTarget = (options: CheckedMcpServerOptions): string => {
  const { target } = options;
  if (target.kind === 'http') return `url ${redactUrl(target.url)}`;
  return `command ${JSON.stringify([target.command, ...target.args].join(' '))}${target.cwd === undefined ? '' : ` in ${target.cwd}`}`;
};

const hintFor = (error: unknown, options: CheckedMcpServerOptions): string => {
  const code = (error as { code?: unknown } | null)?.code;
  const causeCode = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (code === 'ENOENT') {
    return options.target.kind === 'stdio' && options.target.cwd !== undefined
      ? 'The command or the working directory does not exist; check "command", "cwd" and PATH.'
      : 'The command was not found; check "command" and PATH (give an absolute path, or pass PATH in "env").';
  }
  if (code === 'EACCES') return 'The command is not executable; check its permissions.';
  const { target } = options;
  if (target.kind === 'http' && (target.url.username !== '' || target.url.password !== '')) {
    return 'A URL cannot carry user and password here; send them in "headers" (for example "Authorization").';
  }
  if (error instanceof SdkHttpError && (error.status === 401 || error.status === 403)) {
    return 'The server refused the request; check the credentials in "headers".';
  }
  if (causeCode === 'ECONNREFUSED' || (error as Error | null)?.message?.includes('fetch failed')) {
    return 'Nothing answered at that address; check "url" and that the server is running.';
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return 'The server closed the connection during start-up; its stderr usually says why.';
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return `The server did not answer within ${options.connectTimeoutMs} ms; ${options.connectTimeoutHint} if it starts slowly.`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) {
    return options.era === 'modern'
      ? 'The server does not speak the 2026-07-28 protocol; use era "auto".'
      : 'Protocol negotiation failed; try era "legacy".';
  }
  return '';
};

/** The `mcp_connect_failed` error of a first connection that failed, with a hint and the stderr tail. */
export const connectFailure = (
  options: CheckedMcpServerOptions,
  error: unknown,
  stderr: string,
): HintgateError => {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  const message = options.target.kind === 'http' ? redactUrlIn(text, options.target.url) : text;
  const hint = hintFor(error, options);
  const tail = stderr.split('\n').slice(-STDERR_LINES).join('\n');
  return new HintgateError(
    'mcp_connect_failed',
    `Could not connect to MCP server "${options.name}" (${describeTarget(options)}): ${message}.${hint === '' ? '' : ` ${hint}`}${tail === '' ? '' : `\nIts stderr ended with:\n${tail}`}`,
    { cause: error },
  );
};

/**
 * Connects to an MCP server over stdio (`command`) or Streamable HTTP (`url`) and
 * registers its tools in `registry` as one origin. Each remote tool keeps its name, title,
 * description, schemas, annotations (three states) and `_meta`; calling it sends
 * `tools/call` with the call's signal, so the runtime's timeouts and cancellation reach the
 * server as `notifications/cancelled`, and returns the server's result as it is.
 *
 * The tool list is refreshed on `notifications/tools/list_changed`. When the server crashes
 * or vanishes, calls in flight end `upstream_unavailable`, later calls fail fast with the
 * same code while the connection is re-established with backoff, and the tools stay
 * registered meanwhile (their names do not come and go); after reconnecting the list is
 * read again. `close()` stops all of it and removes the tools.
 *
 * Resolves once the first connection is made and the tools are registered; with
 * `firstConnection: 'retry'`, also when it failed, with the connection `reconnecting`.
 *
 * @throws HintgateError `invalid_option` for bad options (before anything starts),
 * `mcp_connect_failed` when the first connection fails (naming the command or URL, with
 * the tail of the server's stderr), or the registry's `duplicate_origin` /
 * `duplicate_tool`; with `signal` aborted, the signal's reason.
 */
export async function connectMcpServer(
  options: ConnectMcpServerOptions,
): Promise<McpServerConnection> {
  const checked = checkMcpServerOptions(options);
  const { signal } = options;
  signal?.throwIfAborted();
  const connection = new McpConnection(checked);
  const onAbort = (): void => {
    void connection.close();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await connection.start();
  } catch (error) {
    const retry =
      checked.firstConnection === 'retry' &&
      signal?.aborted !== true &&
      !(error instanceof HintgateError);
    if (retry) {
      connection.retryFirstConnection(connectFailure(checked, error, connection.stderrTail()));
      return connection;
    }
    await connection.close();
    signal?.throwIfAborted();
    if (error instanceof HintgateError) throw error;
    throw connectFailure(checked, error, connection.stderrTail());
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted === true) {
    await connection.close();
    signal.throwIfAborted();
  }
  return connection;
}
