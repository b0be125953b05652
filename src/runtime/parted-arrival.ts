import type { ArrivalOrder } from './arrival-order.js';
import type { Outcome } from './arrival-outcome.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { ToolCall } from './tool-call.js';

/** Calls of an `execute` batch past which it arrives in parts ({@link PartedArrival}). */
export const PARTED_FROM = 1024;

/**
 * Calls of a batch arriving in parts that arrived and have not ended (waiting for their
 * grants, or running) past which its later calls wait to arrive, so that a big batch does
 * not keep every call's state alive at once; it goes on once they are down to
 * {@link RESUME_AT}. The smaller the window, the fewer calls the garbage collector copies
 * and promotes while the batch runs: at 100,000 calls, a window of 1,024 cost about 11 µs
 * per call against 6 µs for 256 (no gain below that). Running calls count as waiting ones
 * do: 10,000 reads that all start at once, each holding its context and promises until it
 * ends, cost about 4 times as much per call as 1,000 did. A batch of at most
 * {@link PARTED_FROM} calls arrives in one pass, which costs it less than parts would.
 */
const ARRIVAL_WINDOW = 256;
const RESUME_AT = 64;

const noop = (): void => {};

/** What a {@link PartedArrival} needs of its pipeline. */
export interface PartHost {
  /** Takes the call at `index` as a pass does (`soon` collects the calls granted at once). */
  arrive(call: ToolCall, index: number, soon: PipelineEntry[]): Outcome;
  /** Settles a part's outcomes, the first being call `first`'s, as a pass does. */
  settle(outcomes: Outcome[], first: number, soon: readonly PipelineEntry[]): void;
  /** Runs `part` in the batch's place in the arrival order (see `CallPipeline`). */
  inPlace(part: () => void): void;
}

/**
 * The arrival of a batch of more than {@link PARTED_FROM} calls (`arriveAll`): its calls
 * arrive in call order as in one pass, but the pass pauses while {@link ARRIVAL_WINDOW} of
 * them have not ended (they wait for their grants, or run), and goes on once they are down
 * to {@link RESUME_AT} (see {@link PartedArrival.ended}). While it
 * pauses, the batch keeps its place in the runtime's arrival order (calls of other turns
 * that arrive meanwhile are admitted after the rest of it), so the order in the lock queue
 * is the one a single pass gives. Pausing only saves memory: the rest of the batch arrives in
 * one part as soon as a call asks for approval or prepares or decides asynchronously (its
 * asks go to the approver together), and by the next turn of the event loop after its first
 * pause in any case (slow tools, rate limits), so that later calls that conflict with none
 * of the waiting ones, and calls of other turns behind the batch's place, are not held back
 * longer than that. Only a batch whose calls end within that turn keeps pausing.
 */
export class PartedArrival {
  readonly #calls: readonly ToolCall[];
  readonly #arrivals: ArrivalOrder;
  readonly #host: PartHost;
  /** The next call to arrive. */
  #next = 0;
  /** Calls that arrived and have not ended: they wait for their grants, or run. */
  #pending = 0;
  /** Every call left arrives in one part: a call asked, or the batch stalled. */
  #whole = false;
  /** Its place in the runtime's arrival order while it pauses. */
  #place: ((admit: () => void) => void) | undefined;
  /** Makes the batch whole by the next turn of the event loop after its first pause. */
  #stall: ReturnType<typeof setImmediate> | undefined;
  /** The next part is queued. */
  #resuming = false;
  /** The batch failed: nothing more arrives. */
  #stopped = false;

  constructor(calls: readonly ToolCall[], arrivals: ArrivalOrder, host: PartHost) {
    this.#calls = calls;
    this.#arrivals = arrivals;
    this.#host = host;
  }

  /**
   * The next part; then, unless it was the last, a pause. When a call's arrival throws (a
   * bug of ours), what did arrive is still settled (the calls granted meanwhile run and free
   * their locks), nothing more arrives, and the error goes to the caller.
   */
  arrivePart(): void {
    if (this.#stopped) return;
    const calls = this.#calls;
    const first = this.#next;
    const outcomes: Outcome[] = [];
    const soon: PipelineEntry[] = [];
    let arrived = false;
    try {
      while (this.#next < calls.length && (this.#whole || this.#pending < ARRIVAL_WINDOW)) {
        const outcome = this.#host.arrive(calls[this.#next] as ToolCall, this.#next, soon);
        // Every call counts until its result is put, one that ended as it arrived too (its
        // result is put when the part settles).
        this.#pending += 1;
        if (outcome instanceof Promise) this.#whole = true;
        outcomes.push(outcome);
        this.#next += 1;
      }
      arrived = true;
    } finally {
      if (!arrived) this.stop();
      else if (this.#next < calls.length) this.#pause();
      else this.#disarm();
      this.#host.settle(outcomes, first, soon);
    }
  }

  /**
   * Pauses in the first place of the arrival order: no call of this part took a place there
   * (the batch is whole once one did). The first pause arms the stall: by the next turn of
   * the event loop, whatever is left arrives in one part, so calls of other turns that wait
   * behind the batch's place wait at most that long, however quickly its parts drain.
   */
  #pause(): void {
    this.#place = this.#arrivals.takeFirst();
    this.#stall ??= setImmediate(() => {
      this.#whole = true;
      this.#resume();
    });
  }

  /** The stall is no longer needed: every call arrived, or the batch stopped. */
  #disarm(): void {
    if (this.#stall !== undefined) clearImmediate(this.#stall);
  }

  /** A call of the batch ended (its result was put): the batch goes on once few are left. */
  ended(): void {
    this.#pending -= 1;
    if (this.#pending > RESUME_AT || this.#place === undefined || this.#resuming) return;
    this.#resuming = true;
    queueMicrotask(() => this.#resume());
  }

  /**
   * Nothing more of the batch arrives (it failed): its place in the arrival order, if it
   * holds one, goes to the calls of other turns behind it.
   */
  stop(): void {
    this.#stopped = true;
    this.#disarm();
    const place = this.#place;
    this.#place = undefined;
    place?.(noop);
  }

  /** Goes on with the batch, in its place in the arrival order. */
  #resume(): void {
    this.#resuming = false;
    const place = this.#place;
    if (place === undefined || this.#stopped) return;
    this.#place = undefined;
    place(() => this.#host.inPlace(() => this.arrivePart()));
  }
}
