import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { HintgateError } from '../../errors/index.js';
import { connectFailure } from './connect-mcp-server.js';
import type { ConnectMcpServerOptions } from './mcp-server-options.js';
import { checkMcpServerOptions } from './mcp-server-options.js';
import { openMcpClient } from './open-mcp-client.js';
import { StderrTail } from './stderr-tail.js';

const ignore = (): void => {};

/** What {@link listMcpServerTools} read. */
export interface ListedMcpServerTools {
  /** The tools, as the server listed them. */
  readonly tools: McpTool[];
  /**
   * Resolves once the connection is closed: a stdio server's process has exited, or was
   * stopped when it did not exit within its grace period after its stdin ended. Never
   * rejects. Await it before ending, so that no server outlives the caller.
   */
  readonly closed: Promise<void>;
}

/**
 * Connects to an MCP server once, reads its tool list as `connectMcpServer` reads it (the
 * same handshake, capabilities and `annotations.custom` kept), and closes the connection
 * (without waiting for it: a server that does not exit when its stdin ends is given its
 * grace period while the caller goes on with the list):
 * for a caller that needs the definitions and not the tools (`hintgate pin`). Nothing is
 * registered: of `options`, those about registering and reconnecting (`registry`, `layer`,
 * `trusted`, `concurrency`, `schemas`, `reconnect`, `firstConnection`, `telemetry`) are
 * checked and have no effect.
 *
 * @throws HintgateError `invalid_option` for bad options, `mcp_connect_failed` when the
 * connection or the list fails (naming the command or URL, with the tail of the server's
 * stderr); with `signal` aborted, the signal's reason.
 */
export async function listMcpServerTools(
  options: ConnectMcpServerOptions,
): Promise<ListedMcpServerTools> {
  const checked = checkMcpServerOptions(options);
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const stderr = new StderrTail();
  let opened: Awaited<ReturnType<typeof openMcpClient>>;
  try {
    opened = await openMcpClient({
      stderr,
      origin: checked.name,
      target: checked.target,
      era: checked.era,
      connectTimeoutMs: checked.connectTimeoutMs,
      ...(checked.clientInfo === undefined ? {} : { clientInfo: checked.clientInfo }),
      ...(checked.onStderr === undefined ? {} : { onStderr: checked.onStderr }),
      ...(checked.serverRequests === undefined ? {} : { serverRequests: checked.serverRequests }),
      signal,
      keepListings: false,
      onClose: ignore,
      onToolsChanged: ignore,
      onToolsError: ignore,
      onNotification: ignore,
    });
  } catch (error) {
    signal.throwIfAborted();
    if (error instanceof HintgateError) throw error;
    throw connectFailure(checked, error, stderr.text);
  }
  return { tools: opened.tools, closed: opened.client.close().catch(ignore) };
}
