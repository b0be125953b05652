import { randomUUID } from 'node:crypto';
import { CANCELLED_BEFORE_START, type Grant, type GrantListener } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import { admitCall } from './admit-stage.js';
import { type Outcome, SOON, WAIT } from './arrival-outcome.js';
import { AuthorizeStage } from './authorize-stage.js';
import { BatchAudit } from './batch-audit.js';
import { BatchResults } from './batch-results.js';
import { failedInside } from './call-result.js';
import { PARTED_FROM, PartedArrival } from './parted-arrival.js';
import type { PipelineEntry } from './pipeline-entry.js';
import {
  type PrepareContext,
  type Prepared,
  type PreparedCall,
  prepareCall,
} from './prepare-call.js';
import { runGranted } from './run-stage.js';
import type { ToolCall } from './tool-call.js';
import type { ArriveOptions, OriginLimits, TurnContext, TurnSetup } from './turn-context.js';

const noop = (): void => {};

const RESOLVED = Promise.resolve();

/**
 * The result of a run, once the call's locks are freed: an asynchronous run frees them
 * only when its result is settled (see `runCall`), so that a later conflicting call is
 * answered after it, not merely run after it.
 */
const released = (entry: PipelineEntry, run: Promise<CallResult>): Promise<CallResult> =>
  run.then((result) => {
    entry.lease?.release();
    entry.lease = undefined;
    return result;
  });

/**
 * The calls of one turn, from arrival to result, through named stages: prepare
 * (`prepare-call.ts`: resolve, validate, keys), admit into the lock queue in arrival order
 * (`admit-stage.ts`), authorize (`authorize-stage.ts`: decide, and ask for approval while
 * holding the call's place), run (`run-stage.ts`), audit (`batch-audit.ts`). A call the
 * policy allows runs as soon as the calls it conflicts with are done; a call that asks
 * waits in its place for its answer (later conflicting calls wait behind it, others go
 * on) and runs once approved, or leaves the queue at once when denied. This class only
 * routes a call from one stage to the next.
 */
export class CallPipeline implements GrantListener<PipelineEntry> {
  #id: string | undefined;
  /** The turn's id: the `batchId` of its audit events (made when first asked for). */
  get id(): string {
    this.#id ??= randomUUID();
    return this.#id;
  }
  readonly #context: TurnContext;
  readonly #setup: TurnSetup;
  #limitsOf: ((origin: string) => OriginLimits) | undefined;
  readonly #prepareContext: PrepareContext;
  readonly #authorize: AuthorizeStage;
  readonly #entries: PipelineEntry[] = [];
  /** Audit writes of the whole turn, when the caller writes the end events. */
  readonly #pending: Promise<void>[] = [];
  readonly #audit: BatchAudit;
  /** The results of the `arriveAll` batch, once one of its calls waits for its grant. */
  #batch: Pick<BatchResults<unknown>, 'put' | 'follow' | 'fail' | 'runInBatch'> | undefined;
  /**
   * While a part of a batch arrives in the batch's place in the arrival order (see
   * `#arriveInParts`): the places its calls took since (ahead of other turns' calls); -1
   * otherwise.
   */
  #inPlace = -1;

  constructor(context: TurnContext, setup: TurnSetup) {
    this.#context = context;
    this.#setup = setup;
    this.#audit = new BatchAudit({
      batchId: () => this.id,
      audit: context.audit,
      includeArguments: context.includeArguments,
      caller: setup.caller,
      onEvent: setup.onEvent,
    });
    const { scopes } = setup;
    this.#prepareContext = {
      registry: context.registry,
      scopes,
      workspace: context.workspace,
      visibleNames: () => context.visibleNames(scopes),
    };
    this.#authorize = new AuthorizeStage(context, setup, this.#audit);
  }

  /**
   * Takes one call: its place in the lock queue is taken now (once it is prepared, and after
   * every call that arrived before it, in any turn of the runtime). Resolves with its result;
   * never rejects, except, when each call writes its own events, with `AuditWriteError`.
   */
  arrive(call: ToolCall, options?: ArriveOptions): CallResult | Promise<CallResult> {
    return this.#arrive(call, options, undefined, -1) as CallResult | Promise<CallResult>;
  }

  /**
   * Takes the calls of a batch (`execute`) as {@link CallPipeline.arrive} does, in one
   * synchronous pass, so that they take their places in the lock queue together; then,
   * after one turn of the microtask queue (no tool runs during the pass), runs the calls
   * granted as they arrived, and settles with `end` of the results in call order. One
   * promise for a batch whose calls were all granted at once and whose tools answer at once.
   * `fail` takes what a bug of ours threw. A batch of more than {@link PARTED_FROM}
   * calls may arrive in parts, in the same order (see `#arriveInParts`).
   */
  arriveAll<R>(
    calls: readonly ToolCall[],
    end: (results: CallResult[]) => R | Promise<R>,
    fail: (error: unknown) => never,
  ): Promise<R> {
    if (calls.length > PARTED_FROM && this.#context.arrivals.idle)
      return this.#arriveInParts(calls, end, fail);
    const soon: PipelineEntry[] = [];
    let waits = 0;
    const outcomes = calls.map((call, index) => {
      const outcome = this.#arrive(call, undefined, soon, index);
      if (outcome === WAIT) waits += 1;
      return outcome;
    });
    if (waits > 0) return this.#waitAll(outcomes, soon, end, fail);
    if (soon.length === 0) {
      const results = outcomes as Array<CallResult | Promise<CallResult>>;
      return results.length === 1
        ? Promise.resolve(results[0] as CallResult | Promise<CallResult>).then(
            (result) => end([result]),
            fail,
          )
        : Promise.all(results).then(end, fail);
    }
    return RESOLVED.then(() => {
      try {
        let next = 0;
        let waiting = false;
        for (let index = 0; index < outcomes.length; index += 1) {
          if (outcomes[index] === SOON) {
            const entry = soon[next] as PipelineEntry;
            next += 1;
            const outcome = this.#runNow(entry, entry.admission?.grant as Grant);
            outcomes[index] = outcome instanceof Promise ? released(entry, outcome) : outcome;
          }
          if (outcomes[index] instanceof Promise) waiting = true;
        }
        const results = outcomes as Array<CallResult | Promise<CallResult>>;
        return waiting ? Promise.all(results).then(end, fail) : end(results as CallResult[]);
      } catch (error) {
        return fail(error);
      }
    });
  }

  /**
   * The rest of an `arriveAll` pass in which some calls wait for their grants: each call's
   * result goes to one {@link BatchResults} as it ends (the waiting ones' through
   * {@link CallPipeline.granted}), rather than each waiting call holding a chain of
   * promises. The calls granted as they arrived run after one turn of the microtask queue,
   * before any waiting call is told of its grant.
   */
  #waitAll<R>(
    outcomes: Outcome[],
    soon: readonly PipelineEntry[],
    end: (results: CallResult[]) => R | Promise<R>,
    fail: (error: unknown) => never,
  ): Promise<R> {
    const batch = new BatchResults<R>(outcomes.length, end, fail);
    this.#batch = batch;
    this.#settle(outcomes, 0, soon);
    return batch.promise;
  }

  /**
   * A batch of more than {@link PARTED_FROM} calls: it arrives in parts (see
   * {@link PartedArrival}), each settled as `#waitAll` settles a pass.
   */
  #arriveInParts<R>(
    calls: readonly ToolCall[],
    end: (results: CallResult[]) => R | Promise<R>,
    fail: (error: unknown) => never,
  ): Promise<R> {
    // A batch that failed (a bug of ours) stops arriving and gives up its place.
    const stopAndFail = (error: unknown): never => {
      parted.stop();
      return fail(error);
    };
    const batch = new BatchResults<R>(calls.length, end, stopAndFail, () => parted.ended());
    this.#batch = batch;
    const parted: PartedArrival = new PartedArrival(calls, this.#context.arrivals, {
      arrive: (call, index, soon) => this.#arrive(call, undefined, soon, index),
      settle: (outcomes, first, soon) => this.#settle(outcomes, first, soon),
      inPlace: (part) => {
        this.#inPlace = 0;
        try {
          part();
        } catch (error) {
          batch.fail(error);
        } finally {
          this.#inPlace = -1;
        }
      },
    });
    try {
      parted.arrivePart();
    } catch (error) {
      batch.fail(error);
    }
    return batch.promise;
  }

  /**
   * After one turn of the microtask queue, runs the calls of a pass (or part, its first call
   * being call `first`) that were granted as they arrived, and puts or follows the results
   * of the others; the waiting ones put theirs through {@link CallPipeline.granted}.
   */
  #settle(outcomes: Outcome[], first: number, soon: readonly PipelineEntry[]): void {
    const batch = this.#batch as Pick<BatchResults<unknown>, 'put' | 'follow' | 'fail'>;
    queueMicrotask(() => {
      try {
        let next = 0;
        for (let k = 0; k < outcomes.length; k += 1) {
          let outcome = outcomes[k] as Outcome;
          if (outcome === WAIT) continue;
          if (outcome === SOON) {
            const entry = soon[next] as PipelineEntry;
            next += 1;
            outcome = this.#runNow(entry, entry.admission?.grant as Grant);
            if (outcome instanceof Promise) outcome = released(entry, outcome);
          }
          if (outcome instanceof Promise) batch.follow(first + k, outcome);
          else batch.put(first + k, outcome);
        }
        // Nothing but the batch's results holds them now.
        outcomes.length = 0;
      } catch (error) {
        batch.fail(error);
      }
    });
  }

  /**
   * A waiting call of an `arriveAll` batch was granted, or may not run: it runs, or ends,
   * and its result goes to the batch's results. The scheduler tells this (the pipeline is
   * the one listener of its batch's calls).
   */
  granted(entry: PipelineEntry, grant: Grant): void {
    this.#batch?.runInBatch(this.#runWaiting, this, entry, grant);
  }

  /** Runs a waiting call of an `arriveAll` batch once told of its grant (see `granted`). */
  #runWaiting(this: CallPipeline, entry: PipelineEntry, grant: Grant): void {
    const batch = this.#batch as Pick<BatchResults<unknown>, 'put' | 'follow' | 'fail'>;
    try {
      const outcome = runGranted(this.#context, this.#audit, entry, grant);
      if (outcome instanceof Promise) batch.follow(entry.index, released(entry, outcome));
      else batch.put(entry.index, outcome);
    } catch (error) {
      batch.fail(error);
    }
  }

  #arrive(
    call: ToolCall,
    options: ArriveOptions | undefined,
    soon: PipelineEntry[] | undefined,
    index: number,
  ): Outcome {
    const entry: PipelineEntry = {
      call,
      index,
      signal: options?.signal ?? this.#setup.signal,
      approval: options?.approval,
      pending: this.#setup.eachCall ? [] : this.#pending,
      prepared: undefined,
      decision: undefined,
      admission: undefined,
      lease: undefined,
      refusal: undefined,
      asking: undefined,
      ended: false,
    };
    // Kept for the batch's end events only: when no one hears them, each call's state dies
    // with the call instead of living until the batch ends.
    if (!this.#setup.eachCall && this.#audit.heard) this.#entries.push(entry);
    this.#authorize.arrived();
    const prepared = prepareCall(call, this.#prepareContext);
    let outcome: Outcome;
    if (!(prepared instanceof Promise) && !('registered' in prepared)) {
      this.#authorize.skipped();
      outcome = prepared;
    } else if (
      !(prepared instanceof Promise) &&
      (this.#inPlace < 0 ? this.#context.arrivals.idle : this.#inPlace === 0)
    ) {
      outcome = this.#admit(entry, prepared, this.#setup.eachCall ? undefined : soon);
    } else {
      outcome = this.#admitInOrder(entry, prepared);
    }
    return this.#setup.eachCall
      ? this.#audit.endEach(entry, outcome as CallResult | Promise<CallResult>)
      : outcome;
  }

  /**
   * Writes the end events of every call, in call order, and waits for the turn's audit
   * writes (`execute`). Rejects with `AuditWriteError`, carrying the results, when a sink
   * failed.
   */
  endBatch(results: CallResult[]): CallResult[] | Promise<CallResult[]> {
    return this.#audit.endBatch(this.#entries, results, this.#pending);
  }

  /** Waits for the call's place, then admits it (see `ArrivalOrder`). */
  #admitInOrder(entry: PipelineEntry, prepared: Prepared | Promise<Prepared>): Promise<CallResult> {
    const { arrivals } = this.#context;
    // In a batch's place, its calls go ahead of those of other turns (see `#arriveInParts`).
    const admitHere = this.#inPlace < 0 ? arrivals.take() : arrivals.takeFirst(this.#inPlace++);
    return new Promise<CallResult>((resolve) => {
      const admit = (ready: Prepared): void => {
        if (!('registered' in ready)) {
          this.#authorize.skipped();
          admitHere(noop);
          resolve(ready);
          return;
        }
        admitHere(() => resolve(this.#admit(entry, ready, undefined) as Promise<CallResult>));
      };
      if (!(prepared instanceof Promise)) {
        admit(prepared);
        return;
      }
      prepared.then(admit, (error: unknown) => {
        this.#authorize.skipped();
        admitHere(noop);
        resolve(failedInside(entry.call, error));
      });
    });
  }

  /**
   * Authorizes and admits a prepared call; a call that asks is admitted on hold. With
   * `soon` (an `arriveAll` pass), a call granted at once is put there instead of being run.
   */
  #admit(entry: PipelineEntry, prepared: PreparedCall, soon: PipelineEntry[] | undefined): Outcome {
    entry.prepared = prepared;
    const decision = this.#authorize.decide(entry);
    if (!(decision instanceof Promise) && decision.decision !== 'ask') {
      const denied = this.#authorize.settled(entry, decision);
      return denied ?? this.#run(entry, false, soon);
    }
    const result = this.#run(entry, true, undefined);
    this.#authorize.hold(entry, decision);
    return result;
  }

  /**
   * Admits a call into the scheduler; resolves with its result once it ran or did not. A
   * call granted as it is admitted runs after one turn of the microtask queue, never during
   * its arrival: the calls handed over with it take their places in the lock queue first.
   */
  #run(entry: PipelineEntry, hold: boolean, soon: PipelineEntry[] | undefined): Outcome {
    this.#limitsOf ??= this.#context.originLimits();
    // In an `arriveAll` pass, a call that waits is told of its grant (see `granted`).
    const admission = admitCall(
      this.#context,
      this.#limitsOf,
      entry,
      hold,
      soon === undefined ? undefined : this,
    );
    const { grant } = admission;
    if (grant === undefined && soon !== undefined) return WAIT;
    if (grant === undefined) {
      return released(
        entry,
        admission.granted.then((granted) => runGranted(this.#context, this.#audit, entry, granted)),
      );
    }
    if (soon !== undefined) {
      soon.push(entry);
      return SOON;
    }
    return released(
      entry,
      Promise.resolve(grant).then((granted) => this.#runNow(entry, granted)),
    );
  }

  /** Runs a call granted at admission, unless it was cancelled in between. */
  #runNow(entry: PipelineEntry, grant: Grant): CallResult | Promise<CallResult> {
    if (!entry.signal.aborted || !grant.ok)
      return runGranted(this.#context, this.#audit, entry, grant);
    // Cancelled before it started: it ends as the scheduler ends a call cancelled in its queue.
    grant.lease.settle(false);
    grant.lease.release();
    return runGranted(this.#context, this.#audit, entry, {
      ok: false,
      reason: 'cancelled',
      message: CANCELLED_BEFORE_START,
      queuedMs: grant.queuedMs,
      held: false,
    });
  }
}
