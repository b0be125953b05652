import type { Readable, Writable } from 'node:stream';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { fastPathEnabled } from '../fast-paths.js';
import type { McpToolServer } from './create-mcp-tool-server.js';
import { StdioCallLayer } from './stdio-call-layer.js';
import { StdioDownstreamTransport } from './stdio-downstream-transport.js';

/** Options of {@link serveMcpStdio}. */
export interface McpStdioOptions {
  /** The tool server to expose. */
  readonly toolServer: McpToolServer;
  /** Called with errors that cannot reach the client. Default: ignore. */
  readonly onError?: (error: Error) => void;
  /** Where the client's messages come from. Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Where the messages to the client go. Default `process.stdout`. */
  readonly stdout?: Writable;
}

/** A tool server serving this process's stdin/stdout; see {@link serveMcpStdio}. */
export interface McpStdioServer {
  /** Resolves when the client closed stdin or {@link McpStdioServer.close} was called. */
  readonly closed: Promise<void>;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Serves a tool server over this process's stdin and stdout, both protocol eras: the
 * client's opening message decides the connection's era (the SDK's `serveStdio`). The
 * connection's messages pass through one transport, a {@link StdioDownstreamTransport},
 * and, above it, the {@link StdioCallLayer}: on a 2025-11-25 connection every `tools/call`
 * goes from there to the tool server's one handler; every other request, and every
 * request of the 2026-07-28 era, goes through the SDK's dispatch (whose `tools/call`
 * reaches the same handler). `HINTGATE_FAST_PATHS` without `stdio` leaves out the layer,
 * so that every request goes through the SDK's dispatch. A line that is not a JSON-RPC message is answered with a
 * JSON-RPC error and reported to `onError`. The messages that are ready in one turn of the
 * event loop are written to stdout together at its end. Keep stdout for the protocol; log
 * to stderr.
 */
export function serveMcpStdio(options: McpStdioOptions): McpStdioServer {
  const { toolServer } = options;
  const stdin = options.stdin ?? process.stdin;
  const onerror = (error: Error): void => {
    try {
      options.onError?.(error);
    } catch {
      // Reporting must never break serving.
    }
  };
  const transport = new StdioDownstreamTransport({
    stdin,
    stdout: options.stdout ?? process.stdout,
    onLineError: onerror,
  });
  const calls = fastPathEnabled('stdio')
    ? new StdioCallLayer({ inner: transport, toolServer, onError: onerror })
    : undefined;
  const handle = serveStdio(
    ({ era }) => {
      const server = toolServer.createServer({ transport: 'stdio' });
      if (era === 'legacy') calls?.serve(server);
      return server;
    },
    { transport: calls ?? transport, onerror },
  );
  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  // The stdio binding: a server exits when its client closes stdin.
  const onEnd = (): void => finish();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  let closing: Promise<void> | undefined;
  void closed.then(() => {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
  });
  return {
    closed,
    close() {
      const closeAll = async (): Promise<void> => {
        try {
          await handle.close();
        } finally {
          // Writes what is still queued; stdout stays open.
          await transport.close();
          stdin.pause();
          finish();
        }
      };
      closing ??= closeAll();
      return closing;
    },
  };
}
