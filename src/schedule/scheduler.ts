import type { RateLimit } from '../tool/index.js';
import type { AbortWatch } from './abort-scope.js';
import {
  type Admission,
  type AdmitRequest,
  CANCELLED_BEFORE_START,
  type Grant,
} from './admission.js';
import { type Clock, systemClock } from './clock.js';
import { LockManager } from './lock-manager.js';
import { RateLimiter } from './rate-limiter.js';
import { SeqHeap } from './seq-heap.js';
import {
  type LeaseHost,
  type OriginQueue,
  type SignalWatch,
  type Taken,
  Ticket,
} from './ticket.js';

/** The quota of a call that took none. */
const NOTHING_TAKEN: readonly Taken[] = Object.freeze([]);

/** An origin offered to one pump, ordered by the admission number of its earliest ready call. */
interface OriginHead {
  readonly seq: number;
  readonly origin: OriginQueue;
}

/** Options of {@link Scheduler}. */
export interface SchedulerOptions {
  /** Time source and timers. Default: the system clock. */
  readonly clock?: Clock;
}

/**
 * Decides when each call may start: after the earlier calls it conflicts with (lock
 * manager), when its origin has a free concurrency slot, and when its tool's rate limit has
 * quota. Calls are admitted in arrival order; ready calls take slots in that order (within an
 * origin strictly first come, first served: while the earliest ready call of an origin waits
 * for a slot, the later ones wait behind it, even one given a higher cap by a later turn). A call
 * admitted on hold (waiting for its approval) keeps its place meanwhile: later calls that
 * conflict with it wait, the others go on.
 */
export class Scheduler {
  readonly #clock: Clock;
  #seq = 0;
  // Nobody reads a queued call's waits but a caller asking `Admission.waitsFor` at once.
  readonly #locks = new LockManager({ keepWaits: false });
  /** Origins with calls ready or running, each with its own ready queue. */
  readonly #origins = new Map<string, OriginQueue>();
  /**
   * Origins whose state changed since the last pump (a call became ready, a slot freed):
   * only these can grant anything, unless quota came back ({@link #pumpAll}).
   */
  #dirty = new Set<OriginQueue>();
  /** Quota came back or a retry time passed: the next pump looks at every origin. */
  #pumpAll = false;
  readonly #limiters = new Map<string, RateLimiter>();
  /** Signals of waiting calls, each with its calls. */
  readonly #watches = new Map<AbortWatch, SignalWatch>();
  #pumpQueued = false;
  #timer: unknown;
  #timerAt = Number.POSITIVE_INFINITY;
  /** Calls settled whose listener is still to be told, in the order settled. */
  #told: Ticket[] = [];
  #telling = false;

  constructor(options: SchedulerOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  /** Calls admitted and not yet released. */
  get active(): number {
    return this.#locks.size;
  }

  /** Admits a call; see {@link Admission}. */
  admit<W>(request: AdmitRequest<W>): Admission {
    const ticket = new Ticket(request as AdmitRequest, this.#seq++);
    ticket.entry = this.#locks.admit(request.id, request.locks, this.#onUnlocked, ticket);
    ticket.admitted = true;
    const { signal } = request;
    const aborted = signal?.aborted === true;
    if (!aborted && ticket.unlocked && !ticket.held && this.#grantAtOnce(ticket)) return ticket;
    const now = this.#clock.now();
    ticket.since = now;
    ticket.readySince = now;
    if (aborted) {
      this.#cancel(ticket);
      return ticket;
    }
    if (signal !== undefined) this.#watch(ticket, signal);
    if (ticket.unlocked && !ticket.held) this.#onReady(ticket);
    return ticket;
  }

  /**
   * Grants a call that is ready as it is admitted, without a turn of the pump, when the
   * pump would grant it first anyway: its origin has a free slot and no earlier ready call
   * waiting for one, and no rate limit has a say.
   */
  #grantAtOnce(ticket: Ticket): boolean {
    if (ticket.rateLimit !== undefined || ticket.originRateLimit !== undefined) return false;
    const known = this.#origins.get(ticket.originName);
    if (known !== undefined && known.ready.size > 0) return false;
    if ((known?.running ?? 0) >= ticket.concurrency) return false;
    ticket.state = 'ready';
    ticket.origin = known ?? this.#origin(ticket.originName);
    // Its caller reads `grant` as `admit` returns: the listener is not told.
    ticket.listener = undefined;
    ticket.waiter = undefined;
    // Granted as admitted: it queued for no time (`since` is 0 as well).
    this.#grant(ticket, 0, NOTHING_TAKEN);
    return true;
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

  #origin(name: string): OriginQueue {
    let origin = this.#origins.get(name);
    if (origin === undefined) {
      origin = { name, running: 0, ready: new SeqHeap<Ticket>() };
      this.#origins.set(name, origin);
    }
    return origin;
  }

  /** The lock manager's `onReady`, one function for every ticket. */
  readonly #onUnlocked = (ticket: Ticket): void => {
    ticket.unlocked = true;
    // While it is admitted, `admit` decides how it goes on.
    if (!ticket.held && ticket.admitted) this.#onReady(ticket);
  };

  #cancel(ticket: Ticket): void {
    this.#refuse(
      ticket,
      'cancelled',
      ticket.held ? 'it was cancelled while it waited for approval' : CANCELLED_BEFORE_START,
    );
  }

  /** Puts a waiting call in its signal's list, listening to the signal with its first call. */
  #watch(ticket: Ticket, signal: AbortWatch): void {
    let watch = this.#watches.get(signal);
    if (watch === undefined) {
      const made: SignalWatch = {
        signal,
        listener: () => this.#aborted(made),
        head: undefined,
        tail: undefined,
      };
      watch = made;
      this.#watches.set(signal, watch);
      signal.addEventListener('abort', watch.listener, { once: true });
    }
    ticket.watch = watch;
    ticket.prev = watch.tail;
    if (watch.tail === undefined) watch.head = ticket;
    else watch.tail.next = ticket;
    watch.tail = ticket;
  }

  /** Takes a call out of its signal's list; the last one out stops listening. */
  #unwatch(ticket: Ticket): void {
    const { watch, prev, next } = ticket;
    if (watch === undefined) return;
    ticket.watch = undefined;
    ticket.prev = undefined;
    ticket.next = undefined;
    if (prev === undefined) watch.head = next;
    else prev.next = next;
    if (next === undefined) watch.tail = prev;
    else next.prev = prev;
    if (watch.head === undefined && this.#watches.get(watch.signal) === watch) {
      this.#watches.delete(watch.signal);
      watch.signal.removeEventListener('abort', watch.listener);
    }
  }

  /** A signal aborted: its waiting calls end cancelled, in admission order. */
  #aborted(watch: SignalWatch): void {
    if (this.#watches.get(watch.signal) === watch) this.#watches.delete(watch.signal);
    let ticket = watch.head;
    while (ticket !== undefined) {
      const { next } = ticket;
      this.#cancel(ticket);
      ticket = next;
    }
  }

  #onReady(ticket: Ticket): void {
    if (ticket.state !== 'waiting') return;
    ticket.state = 'ready';
    ticket.readySince = this.#clock.now();
    // The heap keeps admission order (a call that became ready later may have been admitted
    // earlier), so capped slots go first come, first served.
    const origin = this.#origin(ticket.originName);
    ticket.origin = origin;
    origin.ready.push(ticket);
    this.#dirty.add(origin);
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
    // Past the earliest retry time, quota may have come back for a call of any origin.
    const all = this.#pumpAll || now >= this.#timerAt;
    this.#pumpAll = false;
    const origins = all ? [...this.#origins.values()] : [...this.#dirty];
    this.#dirty = new Set();
    // Merge the origins' ready queues by admission number, each origin offered while it has
    // a free slot: a call costs O(log n) here, however many others of its origin wait.
    const heads = new SeqHeap<OriginHead>();
    for (const origin of origins) this.#offer(heads, origin);
    // Calls still ready that wait for quota, put back once the walk is over.
    const waiting: Ticket[] = [];
    let retryAt = Number.POSITIVE_INFINITY;
    for (let head = heads.pop(); head !== undefined; head = heads.pop()) {
      const { origin } = head;
      const ticket = origin.ready.pop() as Ticket;
      const { rateLimit, originRateLimit } = ticket;
      const taken: Taken[] = [];
      let waitUntil: number | undefined;
      let refused = false;
      for (const limited of [rateLimit, originRateLimit]) {
        if (limited === undefined) continue;
        const limiter = this.#limiter(limited.key, limited.limit);
        const attempt = limiter.tryReserve(now);
        if (!('retryAt' in attempt)) {
          taken.push({ limiter, reservation: attempt });
          continue;
        }
        for (const { limiter: other, reservation } of taken) other.rollback(reservation);
        const maxWait = limited.limit.maxWaitMs ?? limited.limit.windowMs;
        if (attempt.retryAt - ticket.readySince > maxWait) {
          refused = true;
          const { max, windowMs } = limited.limit;
          const whose =
            limited === rateLimit ? '' : ` of server "${ticket.originName}" (across its tools)`;
          this.#refuse(
            ticket,
            'rate_limited',
            `rate limit${whose} of ${max} call(s) per ${windowMs} ms reached; quota frees up in ${Math.ceil(attempt.retryAt - now)} ms. Wait before calling this tool again, or batch the work into fewer calls.`,
          );
        } else {
          waitUntil = attempt.retryAt;
        }
        break;
      }
      if (refused || waitUntil !== undefined) {
        if (waitUntil !== undefined) {
          retryAt = Math.min(retryAt, waitUntil);
          waiting.push(ticket);
        }
        this.#offer(heads, origin);
        continue;
      }
      this.#grant(ticket, now, taken);
      this.#offer(heads, origin);
    }
    for (const ticket of waiting) {
      if (ticket.state === 'ready') ticket.origin?.ready.push(ticket);
    }
    for (const origin of origins) this.#forget(origin);
    if (retryAt !== Number.POSITIVE_INFINITY) this.#armTimer(retryAt, now);
  }

  /** Offers `origin` to a pump when its earliest ready call has a free slot. */
  #offer(heads: SeqHeap<OriginHead>, origin: OriginQueue): void {
    const { ready } = origin;
    let first = ready.peek();
    // Calls refused or withdrawn while ready leave the queue here.
    while (first !== undefined && first.state !== 'ready') {
      ready.pop();
      first = ready.peek();
    }
    if (first !== undefined && origin.running < first.concurrency) {
      heads.push({ seq: first.seq, origin });
    }
  }

  /** Drops an origin with nothing ready or running; {@link #origin} makes it again. */
  #forget(origin: OriginQueue): void {
    if (origin.running > 0 || origin.ready.size > 0 || this.#dirty.has(origin)) return;
    if (this.#origins.get(origin.name) === origin) this.#origins.delete(origin.name);
  }

  #armTimer(at: number, now: number): void {
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#pumpAll = true;
        this.#pump();
      },
      Math.max(0, at - now),
    );
  }

  #grant(ticket: Ticket, now: number, taken: readonly Taken[]): void {
    ticket.state = 'running';
    this.#unwatch(ticket);
    (ticket.origin as OriginQueue).running += 1;
    ticket.host = this.#host;
    ticket.taken = taken;
    // The ticket is the lease: no object or closures per grant.
    this.#settle(ticket, { ok: true, queuedMs: now - ticket.since, lease: ticket });
  }

  /** What every granted call's lease reports to. */
  readonly #host: LeaseHost = {
    settled: (ticket, succeeded) => {
      const { taken } = ticket;
      ticket.taken = undefined;
      if (!succeeded && taken !== undefined && taken.length > 0) {
        for (const { limiter, reservation } of taken) limiter.rollback(reservation);
        this.#pumpAll = true;
        this.#schedulePump();
      }
    },
    released: (ticket) => {
      const origin = ticket.origin as OriginQueue;
      origin.running -= 1;
      this.#unlock(ticket);
      // A freed slot matters to the pump only when a call of the origin waits for one. An
      // idle origin stays known (one per origin): dropping and making it again would cost
      // a queue per call.
      if (origin.ready.size > 0) {
        this.#dirty.add(origin);
        this.#schedulePump();
      }
    },
  };

  /** Gives a call its grant: to `grant` when ok, and to `granted` if it was read. */
  #settle(ticket: Ticket, grant: Grant): void {
    ticket.outcome = grant;
    ticket.resolve?.(grant);
    ticket.resolve = undefined;
    if (ticket.listener === undefined) return;
    this.#told.push(ticket);
    if (this.#telling) return;
    this.#telling = true;
    queueMicrotask(this.#tell);
  }

  /**
   * Tells the listeners of the calls settled since the last time, in the order settled; a
   * call settled meanwhile (a listener's doing) is told in the same pass.
   */
  readonly #tell = (): void => {
    const told = this.#told;
    let index = 0;
    try {
      while (index < told.length) {
        const ticket = told[index] as Ticket;
        index += 1;
        const { listener, waiter } = ticket;
        ticket.listener = undefined;
        ticket.waiter = undefined;
        listener?.granted(waiter, ticket.outcome as Grant);
      }
    } finally {
      // A listener that threw does not lose the grants of the calls after it.
      if (index < told.length) {
        this.#told = told.slice(index);
        queueMicrotask(this.#tell);
      } else {
        told.length = 0;
        this.#telling = false;
      }
    }
  };

  /** Releases a ticket's locks and forgets its lock entry, so the entry dies with the call. */
  #unlock(ticket: Ticket): void {
    const { entry } = ticket;
    if (entry === undefined) return;
    ticket.entry = undefined;
    this.#locks.release(entry);
  }

  #refuse(
    ticket: Ticket,
    reason: 'cancelled' | 'rate_limited' | 'withdrawn',
    message: string,
  ): void {
    if (ticket.state === 'running' || ticket.state === 'done') return;
    ticket.state = 'done';
    this.#unwatch(ticket);
    this.#unlock(ticket);
    const { held } = ticket;
    const queuedMs = held ? 0 : this.#clock.now() - ticket.since;
    this.#settle(ticket, { ok: false, reason, message, queuedMs, held });
  }
}
