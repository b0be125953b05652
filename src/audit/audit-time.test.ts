import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditTime } from './audit-time.js';

describe('auditTime', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the ISO-8601 text of the millisecond it is given, each time another', () => {
    for (const ms of [0, 1, 1, 999, 1_000, 1_764_355_200_123, 1_764_355_200_123, 1]) {
      expect(auditTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('follows the clock when given no time', () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T10:00:00.000Z') });
    expect(auditTime()).toBe('2026-11-28T10:00:00.000Z');
    vi.advanceTimersByTime(1);
    expect(auditTime()).toBe('2026-11-28T10:00:00.001Z');
    vi.setSystemTime(new Date('2020-01-01T00:00:00.000Z'));
    expect(auditTime()).toBe('2020-01-01T00:00:00.000Z');
  });
});
