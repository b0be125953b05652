/**
 * State that several gateway replicas share: rate-limit windows, concurrency slots,
 * remembered approvals and single-use tokens. Every operation is atomic on the store; when
 * the store cannot be reached it rejects with {@link SharedStateUnavailableError}, never
 * falling back to per-process state.
 */
export interface SharedState {
  /**
   * Takes, in one atomic step (one round trip), everything a call needs: a slot of
   * `request.slot` when given and one unit of each of `request.windows`. Either all of it
   * is taken or none: a full window leaves no slot held, and a full slot spends no unit.
   */
  take(request: TakeRequest): Promise<TakeOutcome>;
  /**
   * Takes one unit of the sliding window `key` (at most `limit.max` units per
   * `limit.windowMs`, by the store's clock), or tells how long until one frees up.
   */
  reserve(key: string, limit: WindowLimit): Promise<ReserveOutcome>;
  /** Hands a reservation's unit back (the call failed). */
  rollback(reservation: WindowReservation): Promise<void>;
  /**
   * Takes one of `max` slots of `key`, held under a lease the holder renews while it lives;
   * a holder that dies loses its slot when the lease runs out. Resolves undefined when every
   * slot is taken (the caller waits and tries again, see {@link SharedState.waitForSlot}).
   */
  tryAcquireSlot(key: string, max: number): Promise<SlotLease | undefined>;
  /** Resolves when a slot of `key` may have been released, or after `timeoutMs`. */
  waitForSlot(key: string, timeoutMs: number): Promise<void>;
  /** Approvals of `tool` for approval keys under `scope` (`always`, or a session's id). */
  hasApprovals(scope: string, tool: string, keys: readonly string[]): Promise<boolean>;
  /** Remembers approvals; a session scope forgets them after `ttlMs`. */
  addApprovals(
    scope: string,
    tool: string,
    keys: readonly string[],
    record: ApprovalMemo,
    ttlMs?: number,
  ): Promise<void>;
  /** Every remembered approval of a scope. */
  listApprovals(scope: string): Promise<StoredApproval[]>;
  /**
   * Marks `token` used; true the first time, false when it was already used. Remembered for
   * `ttlMs`, after which the token must have expired anyway.
   */
  useOnce(token: string, ttlMs: number): Promise<boolean>;
  /** `ready` when the store answers now, `unavailable` while reconnecting. */
  readonly status: SharedStateStatus;
  /** Stops renewing leases, releases held slots and disconnects. */
  close(): Promise<void>;
}

/** What one call needs of the shared state; see {@link SharedState.take}. */
export interface TakeRequest {
  /** A slot of at most `max` under `key` (see {@link SharedState.tryAcquireSlot}). */
  readonly slot?: { readonly key: string; readonly max: number };
  /** One unit of each window, under its `key` (see {@link SharedState.reserve}). */
  readonly windows: readonly { readonly key: string; readonly limit: WindowLimit }[];
}

/** What {@link SharedState.take} found. */
export type TakeOutcome =
  | {
      /** Everything asked for: the slot's lease (when one was asked for) and one unit per window, in order. */
      readonly taken: {
        readonly slot?: SlotLease;
        readonly reservations: readonly WindowReservation[];
      };
    }
  | {
      /** Every slot is held; nothing was taken. */
      readonly slotFull: true;
    }
  | {
      /** Index in `windows` of a full window; nothing was taken. */
      readonly windowFull: number;
      /** Milliseconds until that window's oldest unit leaves it. */
      readonly retryAfterMs: number;
    };

/** A sliding-window limit. */
export interface WindowLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** One unit taken from a window. */
export interface WindowReservation {
  readonly key: string;
  readonly member: string;
}

/** What {@link SharedState.reserve} found. */
export type ReserveOutcome =
  | { readonly reservation: WindowReservation }
  | { readonly retryAfterMs: number };

/** A concurrency slot held by this process. */
export interface SlotLease {
  /** True once the lease ran out before it was renewed (the store was unreachable too long). */
  readonly lost: boolean;
  /** Frees the slot. Never rejects. */
  release(): Promise<void>;
}

/** Who approved and why, stored with an approval. */
export interface ApprovalMemo {
  readonly grantedAt: string;
  readonly reason?: string;
}

/** One remembered approval. */
export interface StoredApproval extends ApprovalMemo {
  readonly tool: string;
  readonly key: string;
}

/** See {@link SharedState.status}. */
export type SharedStateStatus = 'ready' | 'unavailable';

/**
 * The shared store could not be reached. Calls that need it fail with this (as a call
 * result with code `shared_state_unavailable`), rather than run on per-process state.
 */
export class SharedStateUnavailableError extends Error {
  readonly code = 'shared_state_unavailable';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SharedStateUnavailableError';
  }
}
