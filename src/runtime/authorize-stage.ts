import type { Approver, DecideContext, Decision } from '../policy/index.js';
import { AbortScope } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import { AskGatherer } from './ask-gatherer.js';
import { type Authorization, authorizeBatch, deniedMessage } from './authorize-batch.js';
import type { BatchAudit } from './batch-audit.js';
import { failedInside, failedResult } from './call-result.js';
import { decidePolicy } from './decide-policy.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { PreparedCall } from './prepare-call.js';
import type { TurnContext, TurnSetup } from './turn-context.js';

/** The decide context of a turn without a session: one shared object. */
const NO_SESSION: DecideContext = Object.freeze({});

/** A denied call's result. */
export const deniedResult = (call: PreparedCall, decision: Decision): CallResult =>
  failedResult(call, 'denied', deniedMessage(call.name, decision.reason, decision.message));

/**
 * The authorize stage of a turn: the policy's decision for each prepared call, and, for a
 * call that asks, the approver's answer while the call holds its place in the queue. The
 * asks of calls that arrived together go to the approver as one group; each call then goes
 * on (`Scheduler.proceed`) or leaves the queue (`Scheduler.withdraw`).
 */
export class AuthorizeStage {
  readonly #context: TurnContext;
  readonly #setup: TurnSetup;
  readonly #audit: BatchAudit;
  readonly #decideContext: DecideContext;
  /** Made for the first call that asks: most turns never ask. */
  #gatherer: AskGatherer<PipelineEntry> | undefined;
  /** Calls that arrived and are not decided, while there is no gatherer to count them. */
  #undecided = 0;

  constructor(context: TurnContext, setup: TurnSetup, audit: BatchAudit) {
    this.#context = context;
    this.#setup = setup;
    this.#audit = audit;
    this.#decideContext = setup.session === undefined ? NO_SESSION : { session: setup.session };
  }

  /** A call arrived: its decision is to come (asks are gathered until every one came). */
  arrived(): void {
    if (this.#gatherer === undefined) this.#undecided += 1;
    else this.#gatherer.arrived();
  }

  /** A call that arrived will not be decided (it could not be prepared). */
  skipped(): void {
    this.#decidedOne();
  }

  /** The decision of a call that arrived is known; `ask` when it asks. */
  #decidedOne(ask?: PipelineEntry): void {
    if (this.#gatherer === undefined && ask === undefined) {
      this.#undecided -= 1;
      return;
    }
    const context = this.#context;
    const { approver } = this.#setup;
    this.#gatherer ??= new AskGatherer(
      (entries) => this.#ask(entries, approver),
      (run) => context.clock.setTimeout(run, 0),
      this.#undecided,
    );
    this.#gatherer.decided(ask);
  }

  /** The policy's first word on a prepared call (`entry.prepared`). */
  decide(entry: PipelineEntry): Decision | Promise<Decision> {
    return decidePolicy(
      entry.prepared as PreparedCall,
      this.#context.authorizer,
      this.#decideContext,
    );
  }

  /**
   * Takes a decision that is known at once and neither asks: allowed, `undefined` (the call
   * runs); denied, the call's result.
   */
  settled(entry: PipelineEntry, decision: Decision): CallResult | undefined {
    entry.decision = decision;
    this.#decidedOne();
    return decision.decision === 'deny'
      ? deniedResult(entry.prepared as PreparedCall, decision)
      : undefined;
  }

  /**
   * Follows a call admitted on hold: once its decision is known (and, when it asks, its
   * answer), lets it go on or takes it out of the queue.
   */
  hold(entry: PipelineEntry, decision: Decision | Promise<Decision>): void {
    if (decision instanceof Promise) {
      decision
        .then((value) => this.#decided(entry, value))
        .catch((error: unknown) => this.#refuse(entry, failedInside(entry.call, error)));
    } else {
      this.#decided(entry, decision);
    }
  }

  /** What to do with a call on hold once its decision is known. */
  #decided(entry: PipelineEntry, decision: Decision): void {
    entry.decision = decision;
    if (decision.decision === 'allow') {
      this.#decidedOne();
      this.#proceed(entry);
    } else if (decision.decision === 'deny') {
      this.#decidedOne();
      this.#refuse(entry, deniedResult(entry.prepared as PreparedCall, decision));
    } else if (entry.signal.aborted) {
      // Cancelled before anyone was asked: nobody needs to be.
      this.#decidedOne();
    } else if (entry.approval !== undefined) {
      this.#decidedOne();
      const answer = entry.approval;
      this.#ask([entry], () => answer);
    } else {
      this.#decidedOne(entry);
    }
  }

  /** Lets a call on hold go on, unless its wait already ended (it was cancelled). */
  #proceed(entry: PipelineEntry): void {
    const { admission } = entry;
    if (admission !== undefined) this.#context.scheduler.proceed(admission);
  }

  /** Takes a call on hold out of the queue, ending it with `result` (unless it ended). */
  #refuse(entry: PipelineEntry, result: CallResult): void {
    const { admission } = entry;
    if (admission === undefined) return;
    entry.refusal = result;
    this.#context.scheduler.withdraw(admission, result.error?.message ?? 'it did not run');
  }

  /**
   * Puts the asks of calls that arrived together to the approver as one group, and lets each
   * call go on or takes it out of the queue by its answer. The group's wait ends when every
   * call of it was cancelled.
   */
  #ask(group: readonly PipelineEntry[], approver: Approver | undefined): void {
    // A call cancelled while its ask was gathered needs no answer.
    const entries = group.filter((entry) => !entry.signal.aborted);
    if (entries.length === 0) return;
    const scope = new AbortScope();
    let live = entries.length;
    const watches = entries.map((entry) => {
      const onAbort = (): void => {
        live -= 1;
        if (live === 0) scope.abort(entry.signal.reason);
      };
      entry.signal.addEventListener('abort', onAbort);
      return onAbort;
    });
    const settle = (authorizations: readonly Authorization[]): void => {
      entries.forEach((entry, index) => {
        entry.signal.removeEventListener('abort', watches[index] as () => void);
        const authorization = authorizations[index] as Authorization;
        entry.decision = authorization.decision;
        if (authorization.allowed) this.#proceed(entry);
        else this.#refuse(entry, authorization.result);
      });
    };
    const answered = authorizeBatch(
      entries.map((entry) => ({
        call: entry.prepared as PreparedCall,
        decision: entry.decision as Decision,
      })),
      {
        authorizer: this.#context.authorizer,
        signal: scope,
        approver,
        session: this.#setup.session,
        record: (type, position, extra) => {
          const entry = entries[position] as PipelineEntry;
          if (!entry.ended) this.#audit.record(type, entry, extra);
        },
      },
    ).then(settle, (error: unknown) => {
      // A bug of ours must not leave the calls waiting for ever.
      settle(
        entries.map((entry) => ({
          allowed: false,
          result: failedInside(entry.call, error),
          decision: entry.decision as Decision,
        })),
      );
    });
    for (const entry of entries) entry.asking = { scope, answered };
  }
}
