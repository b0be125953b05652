import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { RetryableError } from '../runtime/index.js';
import { type AddressGuard, guardedGet } from './guarded-get.js';
import { looksBinary } from './looks-binary.js';

/** Redirects followed at most. */
export const MAX_REDIRECTS = 5;
/** Bytes of a response body read at most; the rest is dropped. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/xhtml+xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-sh',
  'application/sql',
  'application/graphql',
]);
/** A response header as one string (the first of several). */
const header = (response: IncomingMessage, name: string): string | undefined => {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** A text response, after redirects. */
export interface FetchedText {
  /** Where the text came from, after redirects. */
  readonly url: string;
  /** HTTP status of the final response. */
  readonly status: number;
  /** Its reason phrase, possibly empty. */
  readonly statusText: string;
  /** Media type without parameters, e.g. `text/html`; empty when the server sent none. */
  readonly mediaType: string;
  /** The body decoded by its charset (UTF-8 by default). */
  readonly body: string;
  /** True when the body was longer than {@link MAX_BODY_BYTES} and cut. */
  readonly cut: boolean;
}

/** A redirect to another origin, which {@link fetchText} does not follow. */
export interface CrossOriginRedirect {
  /** Where the redirect came from: the last URL fetched. */
  readonly url: string;
  /** HTTP status of the redirect. */
  readonly status: number;
  /** Its reason phrase, possibly empty. */
  readonly statusText: string;
  /** The absolute URL it points to. */
  readonly location: string;
}

/** True for media types whose body is text. */
export function isTextMediaType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    TEXT_TYPES.has(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml')
  );
}

/**
 * Parses and checks a URL for `web_fetch`: only `http:` and `https:` without credentials
 * (`user:password@`) pass. Numeric hosts come out as the address they mean (the URL parser
 * reads `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` as `127.0.0.1`).
 *
 * @throws Error starting `Refused:` for another scheme, or a plain Error when it is no URL.
 */
export function parseWebUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error(
      `${JSON.stringify(String(input))} is not a valid URL; give an absolute http:// or https:// URL.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(
      `Refused: web_fetch only fetches http:// and https:// URLs, not ${url.protocol} ones. Read workspace files with read_file.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new Error(
      `Refused: web_fetch does not send credentials; give the URL without "user:password@" (${url.protocol}//${url.host}${url.pathname}).`,
    );
  }
  return url;
}

/** The response body, decoded by its `Content-Encoding`; undefined for an unknown coding. */
const decodedBody = (response: IncomingMessage): Readable | undefined => {
  const coding = (header(response, 'content-encoding') ?? 'identity').trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip()
      : coding === 'deflate'
        ? createInflate()
        : coding === 'br'
          ? createBrotliDecompress()
          : coding === 'identity' || coding === ''
            ? undefined
            : null;
  if (decoder === null) return undefined;
  if (decoder === undefined) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
};

const readBody = async (
  url: URL,
  response: IncomingMessage,
): Promise<{ bytes: Uint8Array; cut: boolean }> => {
  const body = decodedBody(response);
  if (body === undefined) {
    response.destroy();
    throw new Error(
      `Refused: ${url.href} sent its body in the ${header(response, 'content-encoding')} encoding, which web_fetch cannot decode (it takes gzip, deflate and br).`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_BODY_BYTES) {
        return { bytes: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES), cut: true };
      }
    }
  } finally {
    body.destroy();
    response.destroy();
  }
  return { bytes: Buffer.concat(chunks), cut: false };
};

const decode = (bytes: Uint8Array, contentType: string): string => {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
};

/** Options of {@link fetchText}. */
export interface FetchTextOptions {
  /** Which addresses may be reached, and how names are resolved. */
  readonly guard: AddressGuard;
  /** Aborts the fetch, redirects and body included. */
  readonly signal: AbortSignal;
}

const REQUEST_HEADERS = {
  'user-agent': 'hintgate-web-fetch',
  accept: 'text/html, text/plain, text/markdown, application/json, text/*;q=0.9, */*;q=0.1',
  'accept-encoding': 'gzip, deflate, br',
};

/**
 * GETs a URL and returns its body as text, following up to {@link MAX_REDIRECTS} redirects
 * within its origin (scheme, host and port), each checked to stay on http/https. Every
 * request goes through {@link guardedGet}: private and special-use addresses are refused
 * unless allowed, on every hop and for the address actually connected to. A redirect to
 * another origin is not followed but returned as a {@link CrossOriginRedirect}: policy
 * rules and approvals saw only the first URL, so the next origin must be asked for in a
 * call of its own. 408, 429 and 5xx responses throw a {@link RetryableError}; bodies that
 * are not text are refused without being read.
 */
export async function fetchText(
  input: URL,
  options: FetchTextOptions,
): Promise<FetchedText | CrossOriginRedirect> {
  let url = input;
  let response: IncomingMessage;
  for (let hop = 0; ; hop += 1) {
    response = await guardedGet(url, {
      guard: options.guard,
      signal: options.signal,
      headers: REQUEST_HEADERS,
    }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || code === 'ABORT_ERR' || options.signal.aborted) throw error;
      throw new Error(`${url.href} could not be fetched: ${(error as Error).message}`, {
        cause: error,
      });
    });
    const location = header(response, 'location');
    if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || location === undefined) break;
    response.destroy();
    if (hop >= MAX_REDIRECTS) {
      throw new Error(
        `${input.href} redirected more than ${MAX_REDIRECTS} times; last to ${location}.`,
      );
    }
    const next = parseWebUrl(new URL(location, url));
    if (next.origin !== input.origin) {
      return {
        url: url.href,
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        location: next.href,
      };
    }
    url = next;
  }
  const status = response.statusCode ?? 0;
  const statusText = response.statusMessage ?? '';
  if (RETRY_STATUSES.has(status)) {
    response.destroy();
    const after = Number(header(response, 'retry-after'));
    throw new RetryableError(`${url.href} answered HTTP ${status} ${statusText}.`, {
      ...(Number.isFinite(after) && after > 0 ? { retryAfterMs: after * 1000 } : {}),
    });
  }
  const contentType = header(response, 'content-type') ?? '';
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mediaType !== '' && !isTextMediaType(mediaType)) {
    response.destroy();
    const length = header(response, 'content-length');
    throw new Error(
      `Refused: ${url.href} is ${mediaType}${length === undefined ? '' : ` (${length} bytes)`}, not text; web_fetch only returns text content (HTML, plain text, JSON, XML, ...).`,
    );
  }
  const { bytes, cut } = await readBody(url, response);
  if (mediaType === '' && looksBinary(bytes)) {
    throw new Error(
      `Refused: ${url.href} sent binary data without a content type; web_fetch only returns text.`,
    );
  }
  return { url: url.href, status, statusText, mediaType, body: decode(bytes, contentType), cut };
}
