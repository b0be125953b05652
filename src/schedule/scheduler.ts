import type { RateLimit } from '../tool/index.js';
import type { AbortWatch } from './abort-scope.js';
import { type Clock, systemClock } from './clock.js';
import { type LockEntry, LockManager } from './lock-manager.js';
import type { Lock } from './lock-mode.js';
import { RateLimiter, type Reservation } from './rate-limiter.js';

/** A call asking to run. */
export interface AdmitRequest {
  /** Call id, reported in other calls' `waitsFor`. */
  readonly id: string;
  readonly locks: readonly Lock[];
  /** Origin whose concurrency cap applies. */
  readonly origin: string;
  /** Calls of this origin that may run at once (`Infinity` for no cap). */
  readonly concurrency: number;
  /** Rate limit of the tool, shared by every call with the same `rateLimitKey`. */
  readonly rateLimit?: { readonly key: string; readonly limit: RateLimit };
  /** Aborting it before the call is granted ends the call `cancelled`. */
  readonly signal?: AbortWatch;
  /**
   * Admit the call on hold: it takes its place in the lock queue now (later conflicting
   * calls wait for it) but takes no slot or quota and is not granted until
   * {@link Admission.proceed} (its approval came), or leaves with {@link Admission.withdraw}
   * (it was denied). Default false.
   */
  readonly hold?: boolean;
}

/** Permission to run, held until {@link Lease.release}. */
export interface Lease {
  /** Reports how the call ended: a call that did not succeed hands its quota back. */
  settle(succeeded: boolean): void;
  /** Frees the call's locks and concurrency slot. Idempotent. */
  release(): void;
}

/** The outcome of waiting: a lease, or why the call may not run. */
export type Grant =
  | { readonly ok: true; readonly queuedMs: number; readonly lease: Lease }
  | {
      readonly ok: false;
      readonly reason: 'cancelled' | 'rate_limited' | 'withdrawn';
      readonly message: string;
      readonly queuedMs: number;
      /** True when the call was still on hold (waiting for its approval) when it ended. */
      readonly held: boolean;
    };

/** An admitted call. */
export interface Admission {
  /** Ids of the earlier active calls this call waits for directly (see `LockEntry.waitsFor`). */
  readonly waitsFor: readonly string[];
  /** Settles when the call may start, or may not run at all. */
  readonly granted: Promise<Grant>;
}

interface Ticket extends Admission {
  readonly request: AdmitRequest;
  /** Admission order: ready calls take slots in this order. */
  readonly seq: number;
  /** When the call was admitted, or let go on from hold: `queuedMs` counts from here. */
  since: number;
  readySince: number;
  /** On hold: waiting for {@link Admission.proceed}. */
  held: boolean;
  /** Every earlier conflicting call is done: the lock manager let it go. */
  unlocked: boolean;
  state: 'waiting' | 'ready' | 'running' | 'done';
  entry: LockEntry | undefined;
  waitsFor: readonly string[];
  readonly resolve: (grant: Grant) => void;
  readonly onAbort: () => void;
}

/** Options of {@link Scheduler}. */
export interface SchedulerOptions {
  /** Time source and timers. Default: the system clock. */
  readonly clock?: Clock;
}

/**
 * Decides when each call may start: after the earlier calls it conflicts with (lock
 * manager), when its origin has a free concurrency slot, and when its tool's rate limit has
 * quota. Calls are admitted in arrival order; ready calls take slots in that order. A call
 * admitted on hold (waiting for its approval) keeps its place meanwhile: later calls that
 * conflict with it wait, the others go on.
 */
export class Scheduler {
  readonly #clock: Clock;
  #seq = 0;
  readonly #locks = new LockManager();
  #ready: Ticket[] = [];
  readonly #running = new Map<string, number>();
  readonly #limiters = new Map<string, RateLimiter>();
  #pumpQueued = false;
  #timer: unknown;
  #timerAt = Number.POSITIVE_INFINITY;

  constructor(options: SchedulerOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  /** Calls admitted and not yet released. */
  get active(): number {
    return this.#locks.size;
  }

  /** Admits a call; see {@link Admission}. */
  admit(request: AdmitRequest): Admission {
    let resolve!: (grant: Grant) => void;
    const granted = new Promise<Grant>((r) => {
      resolve = r;
    });
    const now = this.#clock.now();
    const ticket: Ticket = {
      request,
      seq: this.#seq++,
      since: now,
      readySince: now,
      held: request.hold === true,
      unlocked: false,
      state: 'waiting',
      entry: undefined,
      waitsFor: [],
      granted,
      resolve,
      onAbort: () =>
        this.#refuse(
          ticket,
          'cancelled',
          ticket.held
            ? 'it was cancelled while it waited for approval'
            : 'the batch was cancelled before this call started',
        ),
    };
    ticket.entry = this.#locks.admit(request.id, request.locks, () => this.#onUnlocked(ticket));
    ticket.waitsFor = ticket.entry.waitsFor;
    if (request.signal?.aborted) ticket.onAbort();
    else request.signal?.addEventListener('abort', ticket.onAbort, { once: true });
    return ticket;
  }

  /**
   * Lets a call admitted on hold go on: once the calls it waits for are done it takes a slot
   * and quota like any other. Its `queuedMs` counts from now. Does nothing for a call not
   * on hold, or one that ended.
   */
  proceed(admission: Admission): void {
    const ticket = admission as Ticket;
    if (!ticket.held || ticket.state !== 'waiting') return;
    ticket.held = false;
    ticket.since = this.#clock.now();
    if (ticket.unlocked) this.#onReady(ticket);
  }

  /**
   * Takes a call that has not started out of the queue: its locks are released at once, so
   * the calls that waited for it go on, and its `granted` settles with reason `withdrawn`
   * and `message`. Does nothing for a call that started or ended.
   */
  withdraw(admission: Admission, message: string): void {
    this.#refuse(admission as Ticket, 'withdrawn', message);
  }

  #onUnlocked(ticket: Ticket): void {
    ticket.unlocked = true;
    if (!ticket.held) this.#onReady(ticket);
  }

  #onReady(ticket: Ticket): void {
    if (ticket.state !== 'waiting') return;
    ticket.state = 'ready';
    ticket.readySince = this.#clock.now();
    // Keep the ready list in admission order (a call that became ready later may have been
    // admitted earlier), so capped slots go first come, first served.
    let index = this.#ready.length;
    while (index > 0 && (this.#ready[index - 1] as Ticket).seq > ticket.seq) index -= 1;
    this.#ready.splice(index, 0, ticket);
    this.#schedulePump();
  }

  #schedulePump(): void {
    if (this.#pumpQueued) return;
    this.#pumpQueued = true;
    queueMicrotask(() => this.#pump());
  }

  #limiter(key: string, limit: RateLimit): RateLimiter {
    let limiter = this.#limiters.get(key);
    // A changed limit (a registry update) starts a fresh window; an equal one keeps it.
    if (
      limiter === undefined ||
      limiter.limit.max !== limit.max ||
      limiter.limit.windowMs !== limit.windowMs
    ) {
      limiter = new RateLimiter(limit);
      this.#limiters.set(key, limiter);
    }
    return limiter;
  }

  #pump(): void {
    this.#pumpQueued = false;
    const now = this.#clock.now();
    let retryAt = Number.POSITIVE_INFINITY;
    // The list can grow while we walk it: refusing a call releases its locks.
    for (let index = 0; index < this.#ready.length; index += 1) {
      const ticket = this.#ready[index] as Ticket;
      if (ticket.state !== 'ready') continue;
      const { origin, concurrency, rateLimit } = ticket.request;
      if ((this.#running.get(origin) ?? 0) >= concurrency) continue;
      let reservation: Reservation | undefined;
      let limiter: RateLimiter | undefined;
      if (rateLimit !== undefined) {
        limiter = this.#limiter(rateLimit.key, rateLimit.limit);
        const attempt = limiter.tryReserve(now);
        if ('retryAt' in attempt) {
          const maxWait = rateLimit.limit.maxWaitMs ?? rateLimit.limit.windowMs;
          if (attempt.retryAt - ticket.readySince > maxWait) {
            const { max, windowMs } = rateLimit.limit;
            this.#refuse(
              ticket,
              'rate_limited',
              `rate limit of ${max} call(s) per ${windowMs} ms reached; quota frees up in ${Math.ceil(attempt.retryAt - now)} ms. Wait before calling this tool again, or batch the work into fewer calls.`,
            );
          } else {
            retryAt = Math.min(retryAt, attempt.retryAt);
          }
          continue;
        }
        reservation = attempt;
      }
      this.#grant(ticket, now, limiter, reservation);
    }
    this.#ready = this.#ready.filter((ticket) => ticket.state === 'ready');
    if (retryAt !== Number.POSITIVE_INFINITY) this.#armTimer(retryAt, now);
  }

  #armTimer(at: number, now: number): void {
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#pump();
      },
      Math.max(0, at - now),
    );
  }

  #grant(
    ticket: Ticket,
    now: number,
    limiter: RateLimiter | undefined,
    reservation: Reservation | undefined,
  ): void {
    ticket.state = 'running';
    ticket.request.signal?.removeEventListener('abort', ticket.onAbort);
    const { origin } = ticket.request;
    this.#running.set(origin, (this.#running.get(origin) ?? 0) + 1);
    let settled = false;
    let released = false;
    const lease: Lease = {
      settle: (succeeded) => {
        if (settled) return;
        settled = true;
        if (!succeeded && limiter !== undefined && reservation !== undefined) {
          limiter.rollback(reservation);
          this.#schedulePump();
        }
      },
      release: () => {
        if (released) return;
        released = true;
        ticket.state = 'done';
        this.#running.set(origin, (this.#running.get(origin) ?? 1) - 1);
        if (ticket.entry !== undefined) this.#locks.release(ticket.entry);
        this.#schedulePump();
      },
    };
    ticket.resolve({ ok: true, queuedMs: now - ticket.since, lease });
  }

  #refuse(
    ticket: Ticket,
    reason: 'cancelled' | 'rate_limited' | 'withdrawn',
    message: string,
  ): void {
    if (ticket.state === 'running' || ticket.state === 'done') return;
    ticket.state = 'done';
    ticket.request.signal?.removeEventListener('abort', ticket.onAbort);
    if (ticket.entry !== undefined) this.#locks.release(ticket.entry);
    const { held } = ticket;
    const queuedMs = held ? 0 : this.#clock.now() - ticket.since;
    ticket.resolve({ ok: false, reason, message, queuedMs, held });
  }
}
