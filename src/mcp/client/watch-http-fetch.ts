import { asError } from '../../errors/index.js';
import { isConnectionFailure } from './upstream-unavailable-error.js';

/** What {@link watchHttpFetch} reports about the requests of one HTTP connection. */
export interface HttpFetchHooks {
  /** A request could not reach the server (refused, reset, unreachable): the server is gone. */
  onUnreachable(error: Error): void;
  /**
   * A response stream broke off (the socket closed mid-stream) without being aborted: the
   * server may be gone, or only that stream.
   */
  onStreamBroken(error: Error): void;
  /**
   * The server answered `429 Too Many Requests`: `retryAfterMs` is what its `Retry-After`
   * header says (seconds or an HTTP date, from now), absent when it says nothing usable.
   */
  onRateLimited?(retryAfterMs: number | undefined): void;
}

/**
 * Milliseconds from `now` that a `Retry-After` value asks to wait: delay-seconds, or an
 * HTTP date. Undefined when absent or unusable; 0 for a date in the past.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (text.length > 64) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** `body` of `response`, passing its chunks on and telling `onBroken` if it errors. */
const watchedBody = (
  body: ReadableStream<Uint8Array>,
  aborted: () => boolean,
  onBroken: (error: Error) => void,
): ReadableStream<Uint8Array> => {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        if (!aborted()) onBroken(asError(error));
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
};

/**
 * A `fetch` for the SDK's Streamable HTTP transport that tells connection failures apart
 * from everything else by what the network layer reports (a rejected request with a
 * network error code, a response body that errors), not by the transport's messages. The
 * transport reports both kinds to `onerror` as plain errors, and retries broken streams on
 * its own: without this, a server that died mid-call leaves the call waiting.
 */
export function watchHttpFetch(hooks: HttpFetchHooks, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const aborted = () => init?.signal?.aborted === true;
    let response: Response;
    try {
      response = await base(url, init);
    } catch (error) {
      if (!aborted() && isConnectionFailure(error)) hooks.onUnreachable(asError(error));
      throw error;
    }
    if (response.status === 429) {
      try {
        hooks.onRateLimited?.(parseRetryAfter(response.headers.get('retry-after')));
      } catch {
        // A listener's failure must not change what the transport sees.
      }
    }
    const { body } = response;
    if (body === null) return response;
    // Replaced lazily on the response itself, so that its url, status and redirect state
    // stay as they are and `text()` / `json()` still read the original body.
    let watched: ReadableStream<Uint8Array> | undefined;
    Object.defineProperty(response, 'body', {
      configurable: true,
      get: () => {
        watched ??= watchedBody(body, aborted, hooks.onStreamBroken);
        return watched;
      },
    });
    return response;
  };
}
