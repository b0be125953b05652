import { type Readable, Transform, type TransformCallback } from 'node:stream';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
} from '@modelcontextprotocol/server';

/** Options of {@link guardJsonRpcLines}. */
export interface JsonRpcLineGuardOptions {
  /** The client's stream of newline-delimited JSON-RPC messages (stdin). */
  readonly input: Readable;
  /** Writes one line (a JSON-RPC error response, newline included) to the client. */
  readonly reply: (line: string) => void;
  /** Told about each line that was answered with an error instead of passed on. */
  readonly onError?: (error: Error) => void;
  /** Longest line accepted, in bytes. Default 10 MiB, the SDK's stdio buffer limit. */
  readonly maxLineBytes?: number;
}

const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
const PARSE_ERROR = -32_700;
const INVALID_REQUEST = -32_600;

const errorLine = (id: string | number | null, code: number, message: string): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;

/** The id of a message that claims to be a request, so that its error can answer it. */
const requestId = (value: unknown): string | number | null => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { id, method } = value as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')
    ? id
    : null;
};

/**
 * A stream of the client's lines that are JSON-RPC messages, for the SDK's stdio transport,
 * which would skip a line that is not JSON without a word, and drop one that is JSON but no
 * JSON-RPC message with no answer. Such a line is answered here instead, as JSON-RPC asks:
 * a parse error (-32700) for a line that is not JSON (or is longer than `maxLineBytes`), an
 * invalid request (-32600, with the request's id when it has one) for JSON that is not a
 * request, notification or response, each reported to `onError`. Blank lines are skipped.
 */
export function guardJsonRpcLines(options: JsonRpcLineGuardOptions): Readable {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const refuse = (line: string, problem: string): void => {
    try {
      options.reply(line);
      options.onError?.(new Error(`An MCP client sent ${problem}; it was answered with an error.`));
    } catch {
      // A client that cannot be answered or a failing report must not stop the others.
    }
  };
  const check = (text: string): string | undefined => {
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      refuse(
        errorLine(null, PARSE_ERROR, 'Parse error: the message is not JSON'),
        'a line that is not JSON',
      );
      return undefined;
    }
    if (isJSONRPCRequest(value) || isJSONRPCNotification(value) || isJSONRPCResponse(value)) {
      return `${text}\n`;
    }
    refuse(
      errorLine(
        requestId(value),
        INVALID_REQUEST,
        'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
      ),
      'JSON that is not a JSON-RPC message',
    );
    return undefined;
  };

  let rest: Buffer = Buffer.alloc(0);
  let skipping = false;
  const guard = new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      rest = rest.length === 0 ? bytes : Buffer.concat([rest, bytes]);
      for (let index = rest.indexOf(0x0a); index !== -1; index = rest.indexOf(0x0a)) {
        const line = rest.subarray(0, index);
        rest = rest.subarray(index + 1);
        if (skipping) {
          skipping = false;
          continue;
        }
        const passed = check(line.toString('utf8').replace(/\r$/, ''));
        if (passed !== undefined) this.push(passed);
      }
      if (rest.length > max) {
        // The rest of this line, up to its newline, is dropped too.
        rest = Buffer.alloc(0);
        skipping = true;
        refuse(
          errorLine(null, PARSE_ERROR, `Parse error: the message is longer than ${max} bytes`),
          `a message longer than ${max} bytes`,
        );
      }
      done();
    },
    flush(done: TransformCallback) {
      const passed = skipping ? undefined : check(rest.toString('utf8').replace(/\r$/, ''));
      if (passed !== undefined) this.push(passed);
      done();
    },
  });
  options.input.pipe(guard);
  return guard;
}
