import { describe, expect, it } from 'vitest';
import { DEFAULT_RECONNECT, reconnectDelay } from './reconnect-delay.js';

const options = { ...DEFAULT_RECONNECT, initialDelayMs: 100, maxDelayMs: 1_000 };

describe('reconnectDelay', () => {
  it('doubles from initialDelayMs and stays between half and all of that value', () => {
    expect([1, 2, 3].map((n) => reconnectDelay(n, options, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((n) => reconnectDelay(n, options, () => 0.999_999))).toEqual([
      100, 200, 400,
    ]);
  });

  it('is capped at maxDelayMs however many attempts failed', () => {
    expect(reconnectDelay(5, options, () => 0.999_999)).toBe(1_000);
    expect(reconnectDelay(10_000, options, () => 0.999_999)).toBe(1_000);
    expect(reconnectDelay(10_000, options, () => 0)).toBe(500);
  });
});
