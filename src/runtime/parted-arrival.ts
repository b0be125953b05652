import type { ArrivalOrder } from './arrival-order.js';
import { type Outcome, WAIT } from './arrival-outcome.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { ToolCall } from './tool-call.js';

/**
 * Waiting calls of an `execute` batch past which its later calls wait to arrive, so that a
 * big batch does not keep every call's queue state alive at once; it goes on once they are
 * down to {@link RESUME_AT}.
 */
export const ARRIVAL_WINDOW = 256;
const RESUME_AT = 64;

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
 * The arrival of a batch of more than {@link ARRIVAL_WINDOW} calls (`arriveAll`): its calls
 * arrive in call order as in one pass, but the pass pauses while {@link ARRIVAL_WINDOW} of
 * them wait for their grants, and goes on once they are down to {@link RESUME_AT}. While it
 * pauses, the batch keeps its place in the runtime's arrival order (calls of other turns
 * that arrive meanwhile are admitted after the rest of it), so the order in the lock queue
 * is the one a single pass gives. Pausing only saves memory: the rest of the batch arrives in
 * one part as soon as a call asks for approval or prepares or decides asynchronously (its
 * asks go to the approver together), or when the waiting calls are not down by the next turn
 * of the event loop (slow tools, rate limits), so that later calls that conflict with none of
 * them are not held back.
 */
export class PartedArrival {
  readonly #calls: readonly ToolCall[];
  readonly #arrivals: ArrivalOrder;
  readonly #host: PartHost;
  /** The next call to arrive. */
  #next = 0;
  /** Calls that arrived and wait for their grants. */
  #waiting = 0;
  /** Every call left arrives in one part: a call asked, or the batch stalled. */
  #whole = false;
  /** Its place in the runtime's arrival order while it pauses. */
  #place: ((admit: () => void) => void) | undefined;
  /** Goes on with every call left if the waiting calls are not down by the next turn. */
  #stall: ReturnType<typeof setImmediate> | undefined;
  /** The next part is queued. */
  #resuming = false;

  constructor(calls: readonly ToolCall[], arrivals: ArrivalOrder, host: PartHost) {
    this.#calls = calls;
    this.#arrivals = arrivals;
    this.#host = host;
  }

  /** Every call arrived. */
  get done(): boolean {
    return this.#next === this.#calls.length;
  }

  /** The next part; then, unless it was the last, a pause. */
  arrivePart(): void {
    const calls = this.#calls;
    const first = this.#next;
    const outcomes: Outcome[] = [];
    const soon: PipelineEntry[] = [];
    while (this.#next < calls.length && (this.#whole || this.#waiting < ARRIVAL_WINDOW)) {
      const outcome = this.#host.arrive(calls[this.#next] as ToolCall, this.#next, soon);
      if (outcome === WAIT) this.#waiting += 1;
      else if (outcome instanceof Promise) this.#whole = true;
      outcomes.push(outcome);
      this.#next += 1;
    }
    if (this.#next < calls.length) {
      // No call of this part took a place in the arrival order (it is whole once one did):
      // the batch's place is the first.
      this.#place = this.#arrivals.takeFirst();
      this.#stall = setImmediate(() => {
        this.#stall = undefined;
        this.#whole = true;
        this.#resume();
      });
    }
    this.#host.settle(outcomes, first, soon);
  }

  /** A call that waited was told of its grant: the batch goes on once few wait. */
  granted(): void {
    this.#waiting -= 1;
    if (this.#waiting > RESUME_AT || this.#place === undefined || this.#resuming) return;
    this.#resuming = true;
    queueMicrotask(() => this.#resume());
  }

  /** Goes on with the batch, in its place in the arrival order. */
  #resume(): void {
    const place = this.#place;
    if (place === undefined) return;
    this.#place = undefined;
    this.#resuming = false;
    if (this.#stall !== undefined) clearImmediate(this.#stall);
    this.#stall = undefined;
    place(() => this.#host.inPlace(() => this.arrivePart()));
  }
}
