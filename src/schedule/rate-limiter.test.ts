import { describe, expect, it } from 'vitest';
import { RateLimiter, type Reservation } from './rate-limiter.js';

const reserved = (attempt: Reservation | { readonly retryAt: number }): Reservation => {
  if ('retryAt' in attempt) throw new Error(`expected quota, got retryAt ${attempt.retryAt}`);
  return attempt;
};

describe('RateLimiter', () => {
  it('grants up to max reservations in one window, then tells when quota frees up', () => {
    const limiter = new RateLimiter({ max: 2, windowMs: 100 });
    reserved(limiter.tryReserve(0));
    reserved(limiter.tryReserve(10));
    expect(limiter.tryReserve(50)).toEqual({ retryAt: 100 });
    expect(limiter.tryReserve(99)).toEqual({ retryAt: 100 });
  });

  it('slides the window: a reservation expires windowMs after it was taken', () => {
    const limiter = new RateLimiter({ max: 2, windowMs: 100 });
    reserved(limiter.tryReserve(0));
    reserved(limiter.tryReserve(10));
    expect(reserved(limiter.tryReserve(100)).at).toBe(100);
    // Now the oldest live reservation is the one at 10.
    expect(limiter.tryReserve(105)).toEqual({ retryAt: 110 });
    reserved(limiter.tryReserve(110));
    expect(limiter.tryReserve(150)).toEqual({ retryAt: 200 });
  });

  it('frees everything after a quiet window', () => {
    const limiter = new RateLimiter({ max: 3, windowMs: 50 });
    for (const at of [0, 1, 2]) reserved(limiter.tryReserve(at));
    for (const at of [60, 60, 60]) reserved(limiter.tryReserve(at));
    expect('retryAt' in limiter.tryReserve(60)).toBe(true);
  });

  it('hands quota back on rollback', () => {
    const limiter = new RateLimiter({ max: 1, windowMs: 1000 });
    const first = reserved(limiter.tryReserve(0));
    expect(limiter.tryReserve(5)).toEqual({ retryAt: 1000 });
    limiter.rollback(first);
    reserved(limiter.tryReserve(5));
  });

  it('rolls back only the given reservation, and only once', () => {
    const limiter = new RateLimiter({ max: 2, windowMs: 1000 });
    const first = reserved(limiter.tryReserve(0));
    reserved(limiter.tryReserve(10));
    limiter.rollback(first);
    limiter.rollback(first);
    reserved(limiter.tryReserve(20));
    // A second rollback of `first` must not have freed another slot.
    expect(limiter.tryReserve(30)).toEqual({ retryAt: 1010 });
  });

  it('ignores the rollback of a reservation that already expired', () => {
    const limiter = new RateLimiter({ max: 1, windowMs: 100 });
    const old = reserved(limiter.tryReserve(0));
    reserved(limiter.tryReserve(100));
    limiter.rollback(old);
    expect(limiter.tryReserve(150)).toEqual({ retryAt: 200 });
  });

  it('exposes the limit it enforces', () => {
    const limit = { max: 1, windowMs: 10 };
    expect(new RateLimiter(limit).limit).toBe(limit);
  });
});
