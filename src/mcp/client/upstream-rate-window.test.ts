import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../testing/index.js';
import {
  MAX_UPSTREAM_RATE_WINDOW_MS,
  rateLimitedText,
  retryAfterInText,
  UpstreamRateWindow,
} from './upstream-rate-window.js';
import { parseRetryAfter } from './watch-http-fetch.js';

describe('reading a rate-limit answer', () => {
  it('reads the wait a tool error names, in its unit', () => {
    expect(retryAfterInText('Rate limit exceeded; retry after 30 seconds')).toBe(30_000);
    expect(retryAfterInText('429 Too Many Requests. Retry-After: 2')).toBe(2_000);
    expect(retryAfterInText('throttled, try again in 500ms')).toBe(500);
    expect(retryAfterInText('quota exceeded, retry after 2 minutes')).toBe(120_000);
    expect(retryAfterInText('rate limited')).toBeUndefined();
  });

  it('takes only an error result whose text says rate limited', () => {
    const text = (value: string, isError = true) => ({
      content: [{ type: 'text' as const, text: value }],
      isError,
    });
    expect(rateLimitedText(text('Too many requests'))).toBe('Too many requests');
    expect(rateLimitedText(text('rate limit reached', false))).toBeUndefined();
    expect(rateLimitedText(text('file not found'))).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('caps the window a server may impose', () => {
    const seen: number[] = [];
    const window = new UpstreamRateWindow('api', { onLimited: ({ until }) => seen.push(until) });
    const before = Date.now();
    window.note(365 * 24 * 3_600_000, 'http');
    expect((window.until ?? 0) - before).toBeLessThanOrEqual(MAX_UPSTREAM_RATE_WINDOW_MS + 50);
    expect(seen).toHaveLength(1);
    // A shorter answer does not shorten the window, nor is it told again.
    window.note(1_000, 'tool_error');
    expect(seen).toHaveLength(1);
  });
});

describe('UpstreamRateWindow.call', () => {
  const request = (deadline?: number) => ({
    name: 'search',
    arguments: {},
    signal: new AbortController().signal,
    ...(deadline === undefined ? {} : { deadline }),
  });

  it('opens the window on a JSON-RPC error that says rate limited, passes the error on, and ends a call whose deadline comes first rate_limited unsent', async () => {
    const seen: { source: string; retryAfterMs?: number }[] = [];
    const window = new UpstreamRateWindow('api', { onLimited: (limit) => seen.push(limit) });
    const refusal = new ProtocolError(-32000, 'Rate limit exceeded; retry after 30 seconds');
    await expect(window.call(request(), () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(seen).toEqual([expect.objectContaining({ source: 'tool_error', retryAfterMs: 30_000 })]);
    let sent = false;
    const short = window.call(request(Date.now() + 1_000), async () => {
      sent = true;
      return { content: [] };
    });
    await expect(short).rejects.toMatchObject({ code: 'rate_limited', origin: 'api' });
    expect(sent).toBe(false);
  });

  it('holds a call until the window ends on its clock, and cancels the wait with the call', async () => {
    const clock = createFakeClock();
    const window = new UpstreamRateWindow('api', { onLimited: () => {}, clock });
    window.note(5_000, 'http');
    let sent = 0;
    const send = async () => {
      sent++;
      return { content: [] };
    };
    const held = window.call(request(), send);
    await clock.advance(4_999);
    expect(sent).toBe(0);
    expect(window.until).toBeDefined();
    await clock.advance(1);
    await held;
    expect(sent).toBe(1);
    expect(window.until).toBeUndefined();
    expect(clock.pending()).toBe(0);

    window.note(5_000, 'tool_error');
    const cancel = new AbortController();
    const cancelled = window.call({ ...request(), signal: cancel.signal }, send);
    expect(clock.pending()).toBe(1);
    cancel.abort(new Error('cancelled by the client'));
    await expect(cancelled).rejects.toThrow('cancelled by the client');
    expect(clock.pending()).toBe(0);
    expect(sent).toBe(1);
  });
});
