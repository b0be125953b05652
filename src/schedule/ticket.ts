import type { AbortWatch } from './abort-scope.js';
import type { Admission, AdmitRequest, Grant, GrantListener, Lease } from './admission.js';
import type { LockEntry } from './lock-manager.js';
import type { RateLimiter, Reservation } from './rate-limiter.js';
import type { SeqHeap } from './seq-heap.js';

/** The waits of a call that waits for nothing. */
const NOTHING_WAITED: readonly string[] = Object.freeze([]);

/** What a granted call's lease reports to its scheduler. */
export interface LeaseHost {
  /** The call ended, succeeded or not (see {@link Lease.settle}); told once. */
  settled(ticket: Ticket, succeeded: boolean): void;
  /** The call freed its locks and slot (see {@link Lease.release}); told once. */
  released(ticket: Ticket): void;
}

/**
 * An admitted call: the request's fields the scheduler reads, and the call's state; once
 * granted, its own lease. A class, so that the many calls of a big batch share one compact
 * shape; the request itself is not kept, and a grant makes no lease object or closures.
 */
export class Ticket implements Admission, Lease {
  readonly id: string;
  /** Admission order: ready calls take slots in this order. */
  readonly seq: number;
  readonly originName: string;
  readonly concurrency: number;
  readonly rateLimit: AdmitRequest['rateLimit'];
  readonly originRateLimit: AdmitRequest['originRateLimit'];
  readonly signal: AbortWatch | undefined;
  /**
   * When the call was admitted, or let go on from hold: `queuedMs` counts from here. Read
   * from the clock only for a call that waits (one granted at once queued 0 ms).
   */
  since = 0;
  readySince = 0;
  /** On hold: waiting for {@link Admission.proceed}. */
  held: boolean;
  /** Its admission is over: becoming ready now goes through the pump. */
  admitted = false;
  /** Every earlier conflicting call is done: the lock manager let it go. */
  unlocked = false;
  state: 'waiting' | 'ready' | 'running' | 'done' = 'waiting';
  /** The call's origin queue, looked up when it becomes ready. */
  origin: OriginQueue | undefined = undefined;
  entry: LockEntry | undefined = undefined;
  /** Its signal's list of waiting calls, while it is in it; and its neighbours there. */
  watch: SignalWatch | undefined = undefined;
  prev: Ticket | undefined = undefined;
  next: Ticket | undefined = undefined;
  /** The grant, once given. */
  outcome: Grant | undefined = undefined;
  /** {@link granted}, once read, and what settles it. */
  promise: Promise<Grant> | undefined = undefined;
  resolve: ((grant: Grant) => void) | undefined = undefined;
  /** Told of the grant (see `AdmitRequest.listener`), until it is; with its waiter. */
  listener: GrantListener<unknown> | undefined;
  waiter: unknown;

  /** Once granted: who its lease reports to, and the quota it took. */
  host: LeaseHost | undefined = undefined;
  taken: readonly Taken[] | undefined = undefined;
  /** Its lease was settled. */
  settled = false;

  constructor(request: AdmitRequest, seq: number) {
    this.id = request.id;
    this.seq = seq;
    this.originName = request.origin;
    this.concurrency = request.concurrency;
    this.rateLimit = request.rateLimit;
    this.originRateLimit = request.originRateLimit;
    this.signal = request.signal;
    this.held = request.hold === true;
    this.listener = request.listener;
    this.waiter = request.waiter;
  }

  get waitsFor(): readonly string[] {
    return this.entry?.waitsFor ?? NOTHING_WAITED;
  }

  get grant(): Grant | undefined {
    const { outcome } = this;
    return outcome?.ok === true ? outcome : undefined;
  }

  get granted(): Promise<Grant> {
    if (this.promise === undefined) {
      const { outcome } = this;
      this.promise =
        outcome === undefined
          ? new Promise<Grant>((resolve) => {
              this.resolve = resolve;
            })
          : Promise.resolve(outcome);
    }
    return this.promise;
  }

  settle(succeeded: boolean): void {
    if (this.settled || this.host === undefined) return;
    this.settled = true;
    this.host.settled(this, succeeded);
  }

  release(): void {
    if (this.state !== 'running' || this.host === undefined) return;
    this.state = 'done';
    this.host.released(this);
  }
}

/**
 * The waiting calls of one signal, in admission order, and the one listener the scheduler
 * keeps on it for all of them: a batch of many calls adds one listener, not one per call.
 */
export interface SignalWatch {
  readonly signal: AbortWatch;
  readonly listener: () => void;
  head: Ticket | undefined;
  tail: Ticket | undefined;
}

/** A unit of quota a granted call holds, handed back when it fails. */
export interface Taken {
  readonly limiter: RateLimiter;
  readonly reservation: Reservation;
}

/** One origin's running count and its ready calls, earliest admitted first. */
export interface OriginQueue {
  readonly name: string;
  running: number;
  /** Ready calls; a call that left the ready state stays until it reaches the top. */
  readonly ready: SeqHeap<Ticket>;
}
