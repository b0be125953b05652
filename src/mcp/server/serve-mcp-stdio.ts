import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { coalesceWrites } from './coalesce-writes.js';
import type { McpToolServer } from './create-mcp-tool-server.js';
import { directToolCalls } from './direct-tool-calls.js';
import { guardJsonRpcLines } from './guard-json-rpc-lines.js';
import { createStdioFastCalls } from './stdio-fast-calls.js';

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
 * client's opening message decides the connection's era (the SDK's `serveStdio`). A line
 * that is not a JSON-RPC message is answered with a JSON-RPC error and reported to
 * `onError`. The messages that are ready in one turn of the event loop are written to stdout
 * together at its end. Keep stdout for the protocol; log to stderr.
 *
 * On a 2025-era connection, a plain `tools/call` (a name and arguments, no `_meta`) of a tool
 * server made by `createMcpToolServer` takes a fast path past the SDK's per-message dispatch,
 * and its response is written as soon as it is ready when no other such call is under way;
 * what it answers is the same (see `createStdioFastCalls`).
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
  // The messages of one turn of the event loop leave in one write.
  const output = coalesceWrites(options.stdout ?? process.stdout);
  const direct = directToolCalls(toolServer);
  const fast =
    direct === undefined
      ? undefined
      : createStdioFastCalls({
          calls: direct,
          write: (line, now) => {
            if (now) output.writeNow(line);
            else output.write(line);
          },
          pass: (line) => {
            // Once the input ended the SDK answers nothing more; it must not be fed either.
            if (!input.writableEnded && !input.destroyed) input.push(`${line}\n`);
          },
          onError: onerror,
        });
  const input = guardJsonRpcLines({
    input: stdin,
    reply: (line) => output.write(line),
    onError: onerror,
    ...(fast === undefined ? {} : { take: fast.take }),
  });
  const handle = serveStdio(
    () => {
      const server = toolServer.createServer({ transport: 'stdio' });
      fast?.attach(server);
      return server;
    },
    { transport: new StdioServerTransport(input, output), onerror },
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
      closing ??= handle.close().finally(() => {
        stdin.unpipe();
        stdin.pause();
        output.end();
        finish();
      });
      return closing;
    },
  };
}
