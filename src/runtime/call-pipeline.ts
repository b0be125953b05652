import { randomUUID } from 'node:crypto';
import type { Grant } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import { admitCall } from './admit-stage.js';
import { AuthorizeStage } from './authorize-stage.js';
import { BatchAudit } from './batch-audit.js';
import { failedInside } from './call-result.js';
import type { PipelineEntry, ResultSink } from './pipeline-entry.js';
import {
  type PrepareContext,
  type Prepared,
  type PreparedCall,
  prepareCall,
} from './prepare-call.js';
import { runGranted } from './run-stage.js';
import type { ToolCall } from './tool-call.js';
import type { ArriveOptions, TurnContext, TurnSetup } from './turn-context.js';

const noop = (): void => {};

/** The sink of one call: its result at once when it is known at once, else a promise. */
class OneResult implements ResultSink {
  #result: CallResult | undefined;
  #resolve: ((result: CallResult) => void) | undefined;

  put(_slot: number, result: CallResult): void {
    if (this.#resolve === undefined) this.#result = result;
    else this.#resolve(result);
  }

  outcome(): CallResult | Promise<CallResult> {
    return (
      this.#result ??
      new Promise<CallResult>((resolve) => {
        this.#resolve = resolve;
      })
    );
  }
}

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
export class CallPipeline {
  #id: string | undefined;
  /** The turn's id: the `batchId` of its audit events (made when first asked for). */
  get id(): string {
    this.#id ??= randomUUID();
    return this.#id;
  }
  readonly #context: TurnContext;
  readonly #setup: TurnSetup;
  readonly #capOf: (origin: string) => number;
  readonly #prepareContext: PrepareContext;
  readonly #authorize: AuthorizeStage;
  readonly #entries: PipelineEntry[] = [];
  /** Audit writes of the whole turn, when the caller writes the end events. */
  readonly #pending: Promise<void>[] = [];
  readonly #audit: BatchAudit;

  constructor(context: TurnContext, setup: TurnSetup) {
    this.#context = context;
    this.#setup = setup;
    this.#capOf = context.concurrencyCaps();
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
    const sink = new OneResult();
    const entry = this.#take(call, options, sink, 0);
    const outcome = sink.outcome();
    return this.#setup.eachCall ? this.#audit.endEach(entry, outcome) : outcome;
  }

  /**
   * Takes one call of a batch, as {@link arrive} does, and gives its result to `sink` under
   * `slot`, at once when it is known at once. A call waiting for its turn holds no promise:
   * one is made only when it runs, for a tool that answers later.
   */
  take(call: ToolCall, sink: ResultSink, slot: number): void {
    this.#take(call, undefined, sink, slot);
  }

  #take(
    call: ToolCall,
    options: ArriveOptions | undefined,
    sink: ResultSink,
    slot: number,
  ): PipelineEntry {
    const entry: PipelineEntry = {
      call,
      sink,
      slot,
      signal: options?.signal ?? this.#setup.signal,
      approval: options?.approval,
      pending: this.#setup.eachCall ? [] : this.#pending,
      prepared: undefined,
      decision: undefined,
      admission: undefined,
      refusal: undefined,
      asking: undefined,
      ended: false,
    };
    // Kept for the batch's end events only: when no one hears them, each call's state dies
    // with the call instead of living until the batch ends.
    if (!this.#setup.eachCall && this.#audit.heard) this.#entries.push(entry);
    this.#authorize.arrived();
    const prepared = prepareCall(call, this.#prepareContext);
    if (!(prepared instanceof Promise) && !('registered' in prepared)) {
      this.#authorize.skipped();
      sink.put(slot, prepared);
    } else if (!(prepared instanceof Promise) && this.#context.arrivals.idle) {
      this.#admit(entry, prepared);
    } else {
      this.#admitInOrder(entry, prepared);
    }
    return entry;
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
  #admitInOrder(entry: PipelineEntry, prepared: Prepared | Promise<Prepared>): void {
    const admitHere = this.#context.arrivals.take();
    const admit = (ready: Prepared): void => {
      if (!('registered' in ready)) {
        this.#authorize.skipped();
        admitHere(noop);
        entry.sink.put(entry.slot, ready);
        return;
      }
      admitHere(() => this.#admit(entry, ready));
    };
    if (!(prepared instanceof Promise)) {
      admit(prepared);
      return;
    }
    prepared.then(admit, (error: unknown) => {
      this.#authorize.skipped();
      admitHere(noop);
      entry.sink.put(entry.slot, failedInside(entry.call, error));
    });
  }

  /** Authorizes and admits a prepared call; a call that asks is admitted on hold. */
  #admit(entry: PipelineEntry, prepared: PreparedCall): void {
    entry.prepared = prepared;
    const decision = this.#authorize.decide(entry);
    if (!(decision instanceof Promise) && decision.decision !== 'ask') {
      const denied = this.#authorize.settled(entry, decision);
      if (denied === undefined) this.#run(entry, false);
      else entry.sink.put(entry.slot, denied);
      return;
    }
    this.#run(entry, true);
    this.#authorize.hold(entry, decision);
  }

  /**
   * Admits a call into the scheduler and runs it once granted. The grant is awaited through
   * a promise taken here, not a callback of the scheduler: a promise's callback runs in the
   * async context of the call's arrival (its trace, its request), the scheduler's own step
   * in whichever context woke it.
   */
  #run(entry: PipelineEntry, hold: boolean): void {
    const admission = admitCall(this.#context, this.#capOf, entry, hold);
    admission.granted.then((grant) => this.#granted(entry, grant));
  }

  /** The scheduler answered for an admitted call: runs it, or gives why it did not run. */
  readonly #granted = (entry: PipelineEntry, grant: Grant): void => {
    const outcome = runGranted(this.#context, this.#audit, entry, grant);
    if (!(outcome instanceof Promise)) {
      entry.sink.put(entry.slot, outcome);
      return;
    }
    outcome.then(
      (result) => entry.sink.put(entry.slot, result),
      // runGranted never rejects; should a bug of ours make it, the call still gets a result.
      (error: unknown) => entry.sink.put(entry.slot, failedInside(entry.call, error)),
    );
  };
}
