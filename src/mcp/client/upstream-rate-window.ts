import type { CallToolResult } from '@modelcontextprotocol/client';
import { ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import { type Clock, systemClock } from '../../schedule/index.js';
import type { ToolCancellation } from '../../tool/index.js';
import type { RemoteCallRequest } from './remote-tool.js';
import { UpstreamRateLimitedError } from './upstream-rate-limited-error.js';

/** Wait after a rate-limit answer that says nothing of how long, in milliseconds. */
export const DEFAULT_UPSTREAM_RATE_WINDOW_MS = 1_000;

/**
 * Longest window a server's answer may impose, in milliseconds (a `Retry-After` of a day
 * is taken as this): a hostile or broken server cannot stop its calls for longer.
 */
export const MAX_UPSTREAM_RATE_WINDOW_MS = 10 * 60_000;

/** Most characters of a tool error read to tell whether it says "rate limited". */
const MAX_TEXT = 2_000;

const LIMITED_TEXT = /rate[ _-]?limit|too many requests|\b429\b|quota exceeded|throttl/i;
const RETRY_TEXT =
  /(?:retry|try again)(?:[ _-]after|\s+in)?\s*[:=]?\s*(\d{1,9}(?:\.\d{1,3})?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i;

/** What a server said when it said it is rate limited. */
export interface UpstreamRateLimit {
  /** When its window ends, as a `Date.now()` time. */
  readonly until: number;
  /** How long it asked to wait, in milliseconds, when it said. */
  readonly retryAfterMs?: number;
  /** How it said so: an HTTP 429 answer, or a tool error (or JSON-RPC error) whose text says so. */
  readonly source: 'http' | 'tool_error';
}

/**
 * The wait a rate-limit text asks for ("retry after 30 seconds", "Retry-After: 2", "try
 * again in 500ms"), in milliseconds; undefined when it names none.
 */
export function retryAfterInText(text: string): number | undefined {
  const match = RETRY_TEXT.exec(text.slice(0, MAX_TEXT));
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  if (unit === 'ms' || unit.startsWith('milli')) return amount;
  if (unit.startsWith('m')) return amount * 60_000;
  return amount * 1_000;
}

/** The text of a tool error that says its server is rate limited, or undefined. */
export function rateLimitedText(result: CallToolResult): string | undefined {
  if (result.isError !== true || !Array.isArray(result.content)) return undefined;
  for (const block of result.content.slice(0, 4)) {
    if (block?.type !== 'text' || typeof block.text !== 'string') continue;
    const text = block.text.slice(0, MAX_TEXT);
    if (LIMITED_TEXT.test(text)) return text;
  }
  return undefined;
}

const sleep = (clock: Clock, ms: number, signal: ToolCancellation): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

const at = (time: number): string => new Date(time).toISOString();

/** Options of {@link UpstreamRateWindow}. */
export interface UpstreamRateWindowOptions {
  /** Told each time the window is opened or made longer (not when an answer shortens it). */
  readonly onLimited: (limit: UpstreamRateLimit) => void;
  /** Times the window and the waits of calls in it. Default the system clock. */
  readonly clock?: Clock;
}

/**
 * The rate-limit window of one MCP server: once it answers HTTP 429 (with `Retry-After`
 * when given) or a tool error that says it is rate limited, later calls wait for the window
 * to end instead of failing one by one; a call whose timeout comes first ends
 * `rate_limited` at once, saying when to retry.
 */
export class UpstreamRateWindow {
  readonly #origin: string;
  readonly #onLimited: (limit: UpstreamRateLimit) => void;
  readonly #clock: Clock;
  /** When the window ends, as a `Date.now()` time: what is reported and compared with deadlines. */
  #until = 0;
  /** When the window ends on the clock: what the waits and the window's end follow. */
  #endsAt = Number.NEGATIVE_INFINITY;

  constructor(origin: string, options: UpstreamRateWindowOptions) {
    this.#origin = origin;
    this.#onLimited = options.onLimited;
    this.#clock = options.clock ?? systemClock;
  }

  /** When the current window ends (`Date.now()` time), or undefined when there is none. */
  get until(): number | undefined {
    return this.#endsAt > this.#clock.now() ? this.#until : undefined;
  }

  /** Records a rate-limit answer: the window ends `retryAfterMs` from now (capped). */
  note(retryAfterMs: number | undefined, source: UpstreamRateLimit['source']): void {
    const wait = Math.min(
      MAX_UPSTREAM_RATE_WINDOW_MS,
      Math.max(0, retryAfterMs ?? DEFAULT_UPSTREAM_RATE_WINDOW_MS),
    );
    const endsAt = this.#clock.now() + wait;
    if (endsAt <= this.#endsAt) return;
    this.#endsAt = endsAt;
    // Reported as a wall-clock time (audit events, messages, deadlines are `Date.now()` times).
    const until = Date.now() + wait;
    this.#until = until;
    try {
      this.#onLimited({
        until,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        source,
      });
    } catch {
      // A listener's failure must not fail the call.
    }
  }

  /**
   * Sends one call through `send` once the window (if any) is over; ends it
   * `rate_limited` when the window outlasts its deadline, and when the server answers it
   * with HTTP 429.
   */
  call(request: RemoteCallRequest, send: () => Promise<CallToolResult>): Promise<CallToolResult> {
    // No window (nearly always): sent at once, with no wait and no extra promise.
    if (this.until === undefined) return this.#send(request, send);
    return this.#waitThenSend(request, send);
  }

  async #waitThenSend(
    request: RemoteCallRequest,
    send: () => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    for (let until = this.until; until !== undefined; until = this.until) {
      const left = this.#endsAt - this.#clock.now();
      if (request.deadline !== undefined && until > request.deadline) {
        throw new UpstreamRateLimitedError(
          this.#origin,
          until,
          `MCP server "${this.#origin}" said it is rate limited until ${at(until)}, past this call's timeout; tool "${request.name}" was not called. Retry after ${at(until)} (in ${Math.ceil(left / 1000)} s).`,
        );
      }
      await sleep(this.#clock, left, request.signal);
    }
    return this.#send(request, send);
  }

  /** Sends the call; notes a rate limit its answer says, or an HTTP 429 ends it. */
  #send(request: RemoteCallRequest, send: () => Promise<CallToolResult>): Promise<CallToolResult> {
    let sent: Promise<CallToolResult>;
    try {
      sent = send();
    } catch (error) {
      // As from an async function: what `send` throws rejects the call.
      sent = Promise.reject(error);
    }
    return sent.then(
      (result) => {
        const text = rateLimitedText(result);
        if (text !== undefined) this.note(retryAfterInText(text), 'tool_error');
        return result;
      },
      (error: unknown) => {
        if (error instanceof SdkHttpError && error.status === 429) {
          // The fetch hook saw the answer first and noted its Retry-After; else the default.
          if (this.until === undefined) this.note(undefined, 'http');
          const until = this.until ?? Date.now();
          throw new UpstreamRateLimitedError(
            this.#origin,
            until,
            `MCP server "${this.#origin}" answered HTTP 429 Too Many Requests to tool "${request.name}"; retry after ${at(until)}. Calls to it wait until then.`,
            { cause: error },
          );
        }
        // A JSON-RPC error that says so counts as the tool error would; it is passed on as is.
        if (error instanceof ProtocolError && LIMITED_TEXT.test(error.message.slice(0, MAX_TEXT))) {
          this.note(retryAfterInText(error.message), 'tool_error');
        }
        throw error;
      },
    );
  }
}
