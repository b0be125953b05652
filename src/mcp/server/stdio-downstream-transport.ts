import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { asError } from '../../errors/index.js';
import { isPlainObject } from '../../tool/index.js';

/** Options of {@link StdioDownstreamTransport}. */
export interface StdioDownstreamOptions {
  /** The client's newline-delimited JSON-RPC messages (stdin). */
  readonly stdin: Readable;
  /** Where the messages to the client go (stdout). */
  readonly stdout: Writable;
  /** Told about each line that was answered with an error instead of passed on. */
  readonly onLineError?: (error: Error) => void;
  /** Longest line accepted, in bytes. Default 10 MiB, the SDK's stdio buffer limit. */
  readonly maxLineBytes?: number;
}

const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
const PARSE_ERROR = -32_700;
const INVALID_REQUEST = -32_600;
const NEWLINE = 0x0a;

const errorLine = (id: string | number | null, code: number, message: string): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;

/** The id of a message that claims to be a request, so that its error can answer it. */
const isId = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/**
 * Whether `value` is a request, notification or result response of the common shapes, which
 * the SDK's `JSONRPCMessageSchema` passes on unchanged (sdk-pins.test.ts checks it): then it
 * is delivered as parsed. A message it does not accept goes through those schemas instead.
 */
export const isCommonMessage = (value: unknown): value is JSONRPCMessage => {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return false;
  let keys = 1;
  if ('id' in value) {
    if (!isId(value.id)) return false;
    keys += 1;
  }
  if ('method' in value) {
    if (typeof value.method !== 'string') return false;
    keys += 1;
    if ('params' in value) {
      // _meta has a schema of its own; such params go the long way.
      if (!isPlainObject(value.params) || '_meta' in value.params) return false;
      keys += 1;
    }
  } else {
    if (!('id' in value) || !isPlainObject(value.result) || '_meta' in value.result) return false;
    keys += 1;
  }
  // The schemas are strict: any other key fails them.
  return Object.keys(value).length === keys;
};

const requestId = (value: unknown): string | number | null => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { id, method } = value as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')
    ? id
    : null;
};

/**
 * The server side of a stdio MCP connection: the transport the SDK's `serveStdio` is given,
 * so that every message of the connection, both ways, passes here and every request is
 * dispatched by the SDK. It does what the SDK's `StdioServerTransport` does (newline-delimited
 * JSON, a trailing `\r` dropped, closed when stdin ends or stdout fails), and differs where a
 * gateway pays per message:
 *
 * - A line is parsed once. A message of the common shapes (see {@link isCommonMessage}) is
 *   delivered as parsed; any other goes through the SDK's `JSONRPCMessageSchema`, as the
 *   SDK's reader does with every line.
 * - A line the SDK's reader would skip without a word (not JSON) or drop with no answer
 *   (JSON but no JSON-RPC message) is answered, as JSON-RPC asks: a parse error (-32700) for
 *   a line that is not JSON or is longer than `maxLineBytes`, an invalid request (-32600,
 *   with the request's id when it has one) for the rest, each reported to `onLineError`.
 *   Blank lines are skipped.
 * - The messages sent during one turn leave in one write at its end, in order: once the
 *   event that started it (a chunk read) and the promise continuations it set off have run
 *   (`process.nextTick`, so no extra turn of the event loop and no timer handle per call).
 *   Responses that become ready together (several calls whose upstream results arrived in
 *   one chunk) wake the client once. `send` resolves once its
 *   message is queued; while stdout asks writers to wait, messages queue here, with one
 *   `drain` listener at most (a client that reads slowly while a server sends thousands of
 *   notifications piles up no listeners). Closing writes what is queued and leaves stdout
 *   open.
 */
export class StdioDownstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #onLineError: ((error: Error) => void) | undefined;
  readonly #max: number;
  #started = false;
  #closed = false;
  /** The start of a line not yet ended. */
  #rest: Buffer = Buffer.alloc(0);
  /** Dropping the rest of a line that was too long, up to its newline. */
  #skipping = false;
  /** Lines waiting for the end of this turn, or for `drain`. */
  #queued: string[] = [];
  /** A write is due at the end of this turn (`process.nextTick`). */
  #flushing = false;
  readonly #endTurn = (): void => {
    if (this.#flushing) this.#flush();
  };
  #waitingForDrain = false;

  constructor(options: StdioDownstreamOptions) {
    this.#stdin = options.stdin;
    this.#stdout = options.stdout;
    this.#onLineError = options.onLineError;
    this.#max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioDownstreamTransport already started.');
    this.#started = true;
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onEnd);
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onStdinError);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    // Stays after close: a late EPIPE of a client gone must not crash the process.
    this.#stdout.on('error', this.#onStdoutError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('StdioDownstreamTransport is closed'));
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    this.#queue(line);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onStdinError);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onEnd);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#rest = Buffer.alloc(0);
    this.#flush();
    this.onclose?.();
  }

  #queue(line: string): void {
    this.#queued.push(line);
    if (this.#waitingForDrain || this.#flushing) return;
    this.#flushing = true;
    process.nextTick(this.#endTurn);
  }

  /** Writes what is queued in one write, unless stdout asked to wait for `drain`. */
  #flush(): void {
    this.#flushing = false;
    if (this.#queued.length === 0 || this.#waitingForDrain) return;
    const text = this.#queued.length === 1 ? (this.#queued[0] as string) : this.#queued.join('');
    this.#queued = [];
    if (this.#stdout.destroyed || this.#stdout.writableEnded) return;
    if (!this.#stdout.write(text)) {
      this.#waitingForDrain = true;
      this.#stdout.once('drain', () => {
        this.#waitingForDrain = false;
        this.#flush();
      });
    }
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const incoming = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const bytes = this.#rest.length === 0 ? incoming : Buffer.concat([this.#rest, incoming]);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const skip = this.#skipping;
      this.#skipping = false;
      // The line's end is read before it is delivered: a message may close the transport.
      const text = skip ? '' : bytes.toString('utf8', start, end);
      start = end + 1;
      if (!skip) this.#line(text);
      if (this.#closed) return;
    }
    this.#rest = this.#skipping ? Buffer.alloc(0) : bytes.subarray(start);
    if (this.#rest.length > this.#max) {
      // The rest of this line, up to its newline, is dropped too.
      this.#rest = Buffer.alloc(0);
      this.#skipping = true;
      this.#refuse(
        errorLine(null, PARSE_ERROR, `Parse error: the message is longer than ${this.#max} bytes`),
        `a message longer than ${this.#max} bytes`,
      );
    }
  };

  readonly #onEnd = (): void => {
    // A last line without a newline still counts.
    if (!this.#closed && !this.#skipping && this.#rest.length > 0) {
      const text = this.#rest.toString('utf8');
      this.#rest = Buffer.alloc(0);
      this.#line(text);
    }
    this.close().catch(() => {});
  };

  readonly #onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onStdoutError = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    this.close().catch(() => {});
  };

  #refuse(line: string, problem: string): void {
    this.#queue(line);
    try {
      this.#onLineError?.(
        new Error(`An MCP client sent ${problem}; it was answered with an error.`),
      );
    } catch {
      // A failing report must not stop serving.
    }
  }

  #line(raw: string): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== '') {
        this.#refuse(
          errorLine(null, PARSE_ERROR, 'Parse error: the message is not JSON'),
          'a line that is not JSON',
        );
      }
      return;
    }
    let message: JSONRPCMessage;
    if (isCommonMessage(value)) message = value;
    else if (isJSONRPCRequest(value) || isJSONRPCNotification(value) || isJSONRPCResponse(value)) {
      try {
        message = JSONRPCMessageSchema.parse(value) as JSONRPCMessage;
      } catch (error) {
        this.onerror?.(asError(error));
        return;
      }
    } else {
      this.#refuse(
        errorLine(
          requestId(value),
          INVALID_REQUEST,
          'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
        ),
        'JSON that is not a JSON-RPC message',
      );
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(asError(error));
    }
  }
}
