import type { RateLimit } from '../tool/index.js';
import type { AbortWatch } from './abort-scope.js';
import type { Lock } from './lock-mode.js';

/** Why a call cancelled before it started did not run (the message of its grant). */
export const CANCELLED_BEFORE_START = 'the batch was cancelled before this call started';

/**
 * Told of the grants of calls admitted with it (see {@link AdmitRequest.listener}). One
 * listener serves many calls: a waiting call then costs no promise and no closure.
 */
export interface GrantListener<W> {
  /** The call admitted with `waiter` was granted, or may not run (`grant.ok` false). */
  granted(waiter: W, grant: Grant): void;
}

/** A call asking to run; `W` is what {@link AdmitRequest.listener} is told of it. */
export interface AdmitRequest<W = unknown> {
  /** Call id, reported in other calls' `waitsFor`. */
  readonly id: string;
  readonly locks: readonly Lock[];
  /** Origin whose concurrency cap applies. */
  readonly origin: string;
  /** Calls of this origin that may run at once (`Infinity` for no cap). */
  readonly concurrency: number;
  /** Rate limit of the tool, shared by every call with the same `rateLimitKey`. */
  readonly rateLimit?: { readonly key: string; readonly limit: RateLimit };
  /**
   * Rate limit of the call's origin (a server's quota across its tools), shared by every
   * call with the same key. A call runs only with a unit of both limits; the tool's is taken
   * first, and handed back when the origin's has none.
   */
  readonly originRateLimit?: { readonly key: string; readonly limit: RateLimit };
  /** Aborting it before the call is granted ends the call `cancelled`. */
  readonly signal?: AbortWatch;
  /**
   * Admit the call on hold: it takes its place in the lock queue now (later conflicting
   * calls wait for it) but takes no slot or quota and is not granted until
   * {@link Admission.proceed} (its approval came), or leaves with {@link Admission.withdraw}
   * (it was denied). Default false.
   */
  readonly hold?: boolean;
  /**
   * Told of the call's grant, as `granted(waiter, grant)`, in a microtask after it was given
   * (grants in the order given), unless it was given as `admit` returned (read
   * {@link Admission.grant} then). `granted` still settles too when it is read. The
   * scheduler drops both once it told the listener.
   */
  readonly listener?: GrantListener<W>;
  /** What {@link AdmitRequest.listener} is told along with the grant. */
  readonly waiter?: W;
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
  /**
   * Ids of the earlier active calls this call waits for directly while it waits (see
   * `LockEntry.waitsFor`); none once its locks are free. Made when read.
   */
  readonly waitsFor: readonly string[];
  /**
   * Settles when the call may start, or may not run at all. Made when first read: a caller
   * that has {@link Admission.grant} at once need not read it.
   */
  readonly granted: Promise<Grant>;
  /**
   * The grant once the call was granted. Set as `admit` returns when the call was granted
   * as it was admitted (nothing in its way: no lock held against it, a free slot, no rate
   * limit, not on hold, not cancelled), so that its caller may go on without waiting for
   * `granted`, which settles with the same grant.
   */
  readonly grant: Grant | undefined;
}
