import type { RateLimit } from '../tool/index.js';

/** A slot of quota taken by a call; hand it back with {@link RateLimiter.rollback}. */
export interface Reservation {
  readonly at: number;
}

/**
 * Sliding-window rate limit with reserve-then-rollback: a call reserves quota when it
 * starts, and a call that fails hands it back, so only successful calls spend quota.
 */
export class RateLimiter {
  readonly #limit: RateLimit;
  #reservations: Reservation[] = [];

  constructor(limit: RateLimit) {
    this.#limit = limit;
  }

  /** The limit this limiter enforces. */
  get limit(): RateLimit {
    return this.#limit;
  }

  /**
   * Takes one unit of quota at time `now`, or tells when the next unit frees up
   * (`retryAt`, same clock as `now`).
   */
  tryReserve(now: number): Reservation | { readonly retryAt: number } {
    const horizon = now - this.#limit.windowMs;
    if (this.#reservations.length > 0 && (this.#reservations[0]?.at ?? now) <= horizon) {
      this.#reservations = this.#reservations.filter((r) => r.at > horizon);
    }
    if (this.#reservations.length < this.#limit.max) {
      const reservation: Reservation = { at: now };
      this.#reservations.push(reservation);
      return reservation;
    }
    const oldest = this.#reservations[0]?.at ?? now;
    return { retryAt: oldest + this.#limit.windowMs };
  }

  /** Returns a reservation's quota (the call failed). */
  rollback(reservation: Reservation): void {
    const index = this.#reservations.indexOf(reservation);
    if (index !== -1) this.#reservations.splice(index, 1);
  }
}
