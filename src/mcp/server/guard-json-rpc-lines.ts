import { type Readable, Transform, type TransformCallback } from 'node:stream';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../../tool/index.js';

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
const NEWLINE = Buffer.from('\n');

const errorLine = (id: string | number | null, code: number, message: string): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;

/** The id of a message that claims to be a request, so that its error can answer it. */
const isId = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/**
 * Whether `value` is a request, notification or result response of the common shapes: a
 * cheap check that the SDK's schemas accept it (it accepts nothing they refuse). A message
 * it does not accept goes through those schemas instead.
 */
const isCommonMessage = (value: unknown): boolean => {
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
 * A stream of the client's lines that are JSON-RPC messages, for the SDK's stdio transport,
 * which would skip a line that is not JSON without a word, and drop one that is JSON but no
 * JSON-RPC message with no answer. Such a line is answered here instead, as JSON-RPC asks:
 * a parse error (-32700) for a line that is not JSON (or is longer than `maxLineBytes`), an
 * invalid request (-32600, with the request's id when it has one) for JSON that is not a
 * request, notification or response, each reported to `onError`. Blank lines are skipped.
 * Lines that pass are passed on as they came, the lines of one chunk in one piece.
 */
export function guardJsonRpcLines(options: JsonRpcLineGuardOptions): Transform {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const refuse = (line: string, problem: string): void => {
    try {
      options.reply(line);
      options.onError?.(new Error(`An MCP client sent ${problem}; it was answered with an error.`));
    } catch {
      // A client that cannot be answered or a failing report must not stop the others.
    }
  };
  /** Whether a line passes; a line that does not is answered, unless it is blank. */
  const passes = (text: string): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== '') {
        refuse(
          errorLine(null, PARSE_ERROR, 'Parse error: the message is not JSON'),
          'a line that is not JSON',
        );
      }
      return false;
    }
    if (
      isCommonMessage(value) ||
      isJSONRPCRequest(value) ||
      isJSONRPCNotification(value) ||
      isJSONRPCResponse(value)
    ) {
      return true;
    }
    refuse(
      errorLine(
        requestId(value),
        INVALID_REQUEST,
        'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
      ),
      'JSON that is not a JSON-RPC message',
    );
    return false;
  };

  let rest: Buffer = Buffer.alloc(0);
  /** Dropping the rest of a line that was too long, up to its newline. */
  let skipping = false;
  const guard = new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      const incoming = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const bytes = rest.length === 0 ? incoming : Buffer.concat([rest, incoming]);
      let start = 0;
      // Lines that pass run from `passFrom` to `start`, pushed together.
      let passFrom = 0;
      for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
        // The SDK's reader drops a line's trailing \r, and JSON.parse takes it for space.
        const pass = skipping ? false : passes(bytes.toString('utf8', start, end));
        skipping = false;
        if (!pass) {
          if (passFrom < start) this.push(bytes.subarray(passFrom, start));
          passFrom = end + 1;
        }
        start = end + 1;
      }
      if (passFrom < start) this.push(bytes.subarray(passFrom, start));
      rest = skipping ? Buffer.alloc(0) : bytes.subarray(start);
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
      if (!skipping && rest.length > 0 && passes(rest.toString('utf8'))) {
        this.push(Buffer.concat([rest, NEWLINE]));
      }
      done();
    },
  });
  options.input.pipe(guard);
  return guard;
}
