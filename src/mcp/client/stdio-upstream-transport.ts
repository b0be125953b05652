import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import {
  type JSONRPCMessage,
  SdkError,
  SdkErrorCode,
  type Transport,
} from '@modelcontextprotocol/client';
import { isPlainObject } from '../../tool/index.js';
import {
  adoptEarlyStdioServer,
  type StdioUpstreamParams,
  spawnStdioServer,
} from './early-stdio-spawn.js';

export type { StdioUpstreamParams };

/** Longest line accepted from the server, in bytes: the SDK's stdio limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** A line of the server's stdout that is JSON but not a JSON-RPC message; it is ignored. */
export class NotJsonRpcMessageError extends Error {
  constructor(line: string) {
    super(`not a JSON-RPC message: ${line.length > 200 ? `${line.slice(0, 200)}...` : line}`);
    this.name = 'NotJsonRpcMessageError';
  }
}

const NEWLINE = 0x0a;

/** The SDK's error for a message sent on a connection that is not open. */
const notConnected = (): SdkError => new SdkError(SdkErrorCode.NotConnected, 'Not connected');

const isJsonRpcShaped = (value: unknown): value is JSONRPCMessage =>
  isPlainObject(value) &&
  value.jsonrpc === '2.0' &&
  (typeof value.method === 'string' || 'result' in value || 'error' in value);

/**
 * The client side of a stdio MCP connection, for servers spoken to with the 2025 handshake.
 * It starts the process, environment and stop sequence as the SDK's `StdioClientTransport`
 * does (its default environment plus `env`, stdin closed then SIGTERM then SIGKILL), or
 * takes over the process started for the same parameters by `spawnStdioServerEarly`, and
 * differs where a gateway pays per message:
 *
 * - Messages sent in the same turn leave in one write: the first at once, the others
 *   together when the turn ends, with the promise continuations that run after the event
 *   that started it (`process.nextTick`: no extra turn of the event loop, and no timer
 *   handle, per call). So a single call waits for nothing, and calls
 *   made together wake the server once instead of once each.
 * - A line read is parsed as JSON and checked to be shaped as a JSON-RPC message, not
 *   validated against the SDK's schemas: the client validates what it uses (results against
 *   their request's schema, notifications against their handler's), and a `tools/call`
 *   result sent past the SDK is checked on its own (see raw-tool-calls.ts).
 *
 * Lines that are not JSON (a server logging to stdout) are skipped, as the SDK does; JSON
 * that is not a JSON-RPC message is reported to `onerror` and skipped; a line longer than
 * {@link MAX_LINE_BYTES} is reported and closes the connection.
 */
export class StdioUpstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #params: StdioUpstreamParams;
  readonly #stderr = new PassThrough();
  #process: ChildProcess | undefined;
  /** The start of a line not yet ended, chunk by chunk: joined once, when it ends. */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** Lines waiting for the end of this turn, and their senders. */
  #queued: string[] = [];
  #queuedSent: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** A message went in this turn: the rest wait for its end (`process.nextTick`). */
  #turnOpen = false;
  readonly #endTurn = (): void => {
    if (this.#turnOpen) this.#flush();
  };
  /** Settles when the server's stdin drains, while it asks writers to wait. */
  #drained: Promise<void> | undefined;
  /** The close under way: every caller waits for the same end of the process. */
  #closing: Promise<void> | undefined;

  constructor(params: StdioUpstreamParams) {
    this.#params = params;
  }

  /** The server's stderr; listeners may be added before `start`. */
  get stderr(): PassThrough {
    return this.#stderr;
  }

  /** The server's process id once started, else null. */
  get pid(): number | null {
    return this.#process?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.#process !== undefined) {
      return Promise.reject(new Error('StdioUpstreamTransport already started.'));
    }
    return new Promise((resolve, reject) => {
      // A process the gateway started ahead of this connection is taken over as it is.
      const adopted = adoptEarlyStdioServer(this.#params);
      const child = adopted?.child ?? spawnStdioServer(this.#params);
      if (adopted?.spawned === true) resolve();
      this.#process = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        if (this.#process === child) this.#process = undefined;
        this.#dropQueue();
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.pipe(this.#stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (stdin === undefined || stdin === null || !stdin.writable) {
      return Promise.reject(notConnected());
    }
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#turnOpen) {
      // The first message of this turn goes at once; later ones join at the turn's end.
      this.#turnOpen = true;
      process.nextTick(this.#endTurn);
      return this.#write(line);
    }
    return new Promise((resolve, reject) => {
      this.#queued.push(line);
      this.#queuedSent.push({ resolve, reject });
    });
  }

  /**
   * Ends the server: stdin closed, then SIGTERM, then SIGKILL, each after 2 s without an
   * exit. Every call, the SDK client's and its owner's, resolves once the process is gone,
   * so that a connection given up (a first connection that timed out) leaves no process
   * behind.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const child = this.#process;
    this.#flush();
    this.#process = undefined;
    this.#partial = [];
    this.#partialBytes = 0;
    if (child === undefined) return;
    const closed = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('close', () => resolve());
    });
    const within = (ms: number): Promise<void> =>
      Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // Already gone.
    }
    await within(2000);
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
      if (signal === 'SIGTERM') await within(2000);
    }
  }

  #write(text: string): Promise<void> {
    const stdin = this.#process?.stdin;
    if (stdin === undefined || stdin === null || !stdin.writable) {
      return Promise.reject(notConnected());
    }
    const accepted = stdin.write(text);
    // While the pipe is full, every write waits for the same `drain`: one pair of listeners
    // however many turns write meanwhile (a server that stops reading must not pile them up).
    if (this.#drained !== undefined) return this.#drained;
    if (accepted) return Promise.resolve();
    const drained = new Promise<void>((resolve, reject) => {
      const done = (error?: Error): void => {
        stdin.off('drain', onDrain);
        stdin.off('close', onClose);
        if (this.#drained === drained) this.#drained = undefined;
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = (): void => done();
      const onClose = (): void =>
        done(new SdkError(SdkErrorCode.ConnectionClosed, 'the server closed its stdin'));
      stdin.once('drain', onDrain);
      stdin.once('close', onClose);
    });
    this.#drained = drained;
    return drained;
  }

  #flush(): void {
    this.#turnOpen = false;
    if (this.#queued.length === 0) return;
    const text = this.#queued.join('');
    const sent = this.#queuedSent;
    this.#queued = [];
    this.#queuedSent = [];
    this.#write(text).then(
      () => {
        for (const waiter of sent) waiter.resolve();
      },
      (error: Error) => {
        for (const waiter of sent) waiter.reject(error);
      },
    );
  }

  #dropQueue(): void {
    this.#turnOpen = false;
    const sent = this.#queuedSent;
    this.#queued = [];
    this.#queuedSent = [];
    for (const waiter of sent) {
      waiter.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    }
  }

  #read(chunk: Buffer): void {
    // Only the new chunk is searched and copied: a line of megabytes (a list of thousands
    // of tools) costs its length once, not once per chunk it arrives in.
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      let line: string;
      if (this.#partial.length === 0) line = chunk.toString('utf8', start, end);
      else {
        this.#partial.push(chunk.subarray(start, end));
        const bytes = Buffer.concat(this.#partial);
        // The chunks may go before the text is made: a big line is not held three times.
        this.#partial = [];
        this.#partialBytes = 0;
        line = bytes.toString('utf8');
      }
      start = end + 1;
      this.#line(line);
    }
    if (start < chunk.length) {
      this.#partialBytes += chunk.length - start;
      if (this.#partialBytes > MAX_LINE_BYTES) {
        this.#partial = [];
        this.#partialBytes = 0;
        this.onerror?.(
          new Error(`the server sent a line longer than ${MAX_LINE_BYTES} bytes; closing.`),
        );
        this.close().catch(() => {});
        return;
      }
      this.#partial.push(start === 0 ? chunk : chunk.subarray(start));
    }
  }

  #line(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Not JSON: a server that logs to stdout. Skipped, as the SDK's reader does.
      return;
    }
    if (!isJsonRpcShaped(value)) {
      this.onerror?.(new NotJsonRpcMessageError(line));
      return;
    }
    try {
      this.onmessage?.(value);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
