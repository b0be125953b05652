import { RetryableError } from '../runtime/retryable-error.js';
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
 * Parses and checks a URL for `web_fetch`: only `http:` and `https:` pass.
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
  return url;
}

const readBody = async (response: Response): Promise<{ bytes: Uint8Array; cut: boolean }> => {
  const reader = response.body?.getReader();
  if (reader === undefined) return { bytes: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), cut: false };
    chunks.push(value);
    size += value.length;
    if (size >= MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES), cut: true };
    }
  }
};

const decode = (bytes: Uint8Array, contentType: string): string => {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
};

/**
 * GETs a URL and returns its body as text, following up to {@link MAX_REDIRECTS} redirects
 * within its origin (scheme, host and port), each checked to stay on http/https. A redirect
 * to another origin is not followed but returned as a {@link CrossOriginRedirect}: policy
 * rules and approvals saw only the first URL, so the next origin must be asked for in a
 * call of its own. 408, 429 and 5xx responses throw a {@link RetryableError}; bodies that
 * are not text are refused without being read.
 */
export async function fetchText(
  input: URL,
  options: { readonly fetch: typeof fetch; readonly signal: AbortSignal },
): Promise<FetchedText | CrossOriginRedirect> {
  let url = input;
  let response: Response;
  for (let hop = 0; ; hop += 1) {
    response = await options.fetch(url, {
      redirect: 'manual',
      signal: options.signal,
      headers: {
        'user-agent': 'hintgate-web-fetch',
        accept: 'text/html, text/plain, text/markdown, application/json, text/*;q=0.9, */*;q=0.1',
      },
    });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) break;
    await response.body?.cancel().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) {
      throw new Error(
        `${input.href} redirected more than ${MAX_REDIRECTS} times; last to ${location}.`,
      );
    }
    const next = parseWebUrl(new URL(location, url));
    if (next.origin !== input.origin) {
      return {
        url: url.href,
        status: response.status,
        statusText: response.statusText,
        location: next.href,
      };
    }
    url = next;
  }
  if (RETRY_STATUSES.has(response.status)) {
    await response.body?.cancel().catch(() => undefined);
    const after = Number(response.headers.get('retry-after'));
    throw new RetryableError(
      `${url.href} answered HTTP ${response.status} ${response.statusText}.`,
      {
        ...(Number.isFinite(after) && after > 0 ? { retryAfterMs: after * 1000 } : {}),
      },
    );
  }
  const contentType = response.headers.get('content-type') ?? '';
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mediaType !== '' && !isTextMediaType(mediaType)) {
    await response.body?.cancel().catch(() => undefined);
    const length = response.headers.get('content-length');
    throw new Error(
      `Refused: ${url.href} is ${mediaType}${length === null ? '' : ` (${length} bytes)`}, not text; web_fetch only returns text content (HTML, plain text, JSON, XML, ...).`,
    );
  }
  const { bytes, cut } = await readBody(response);
  if (mediaType === '' && looksBinary(bytes)) {
    throw new Error(
      `Refused: ${url.href} sent binary data without a content type; web_fetch only returns text.`,
    );
  }
  return {
    url: url.href,
    status: response.status,
    statusText: response.statusText,
    mediaType,
    body: decode(bytes, contentType),
    cut,
  };
}
