import { randomUUID } from 'node:crypto';
import type { AuditEmitter, AuditEvent, CallerIdentity } from '../audit/index.js';
import { HintgateError } from '../errors/index.js';
import type {
  ApprovalAnswer,
  Approver,
  Authorizer,
  DecideContext,
  Decision,
} from '../policy/index.js';
import type { ToolRegistry } from '../registry/index.js';
import type { Admission, Clock, Grant, Lock, Scheduler } from '../schedule/index.js';
import { AbortScope } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import type { ArrivalOrder } from './arrival-order.js';
import { AskGatherer } from './ask-gatherer.js';
import { type Authorization, authorizeBatch, deniedMessage } from './authorize-batch.js';
import { BatchAudit } from './batch-audit.js';
import { failedResult } from './call-result.js';
import { decidePolicy } from './decide-policy.js';
import {
  type PrepareContext,
  type Prepared,
  type PreparedCall,
  prepareCall,
} from './prepare-call.js';
import { type ResolvedRetry, resolveRetry } from './retry-delay.js';
import { runCall } from './run-call.js';
import type { ToolCall } from './tool-call.js';

/** What the calls of every turn share: the runtime's parts and settings. */
export interface TurnContext {
  /** Where tools are resolved. */
  readonly registry: ToolRegistry;
  /** The runtime's one scheduler: lock queue, concurrency caps, rate limits. */
  readonly scheduler: Scheduler;
  /** Keeps admission in arrival order across the runtime's turns. */
  readonly arrivals: ArrivalOrder;
  /** Where audit events go. */
  readonly audit: AuditEmitter;
  /** Decides calls and asks for approvals. */
  readonly authorizer: Authorizer;
  /** Time source and timers. */
  readonly clock: Clock;
  /** Random numbers in [0, 1) for backoff jitter. */
  readonly random: () => number;
  /** Directory that absolute path keys are made relative to. */
  readonly workspace: string;
  /** Put redacted arguments into audit events. */
  readonly includeArguments: boolean;
  /** The runtime's retry settings, which a tool's own override. */
  readonly retry: ResolvedRetry;
  /** Text cap of one result, in characters, unless the tool sets its own. */
  readonly maxOutputChars: number;
  /** How long a stopped call whose tool still runs keeps its locks, in ms. */
  readonly releaseGraceMs: number;
  /** Timeout when neither call nor tool sets one, in ms. */
  readonly defaultTimeoutMs: number;
  /** The locks a call takes. */
  locksOf(call: PreparedCall): readonly Lock[];
  /** A fresh lookup of concurrency caps per origin, remembered for one turn. */
  concurrencyCaps(): (origin: string) => number;
  /** Names of the tools the caller may see, for the message about an unknown tool. */
  visibleNames(scopes: readonly string[]): readonly string[];
}

/** How one turn runs. */
export interface TurnSetup {
  /** Scopes of the caller. */
  readonly scopes: readonly string[];
  /** Who to ask instead of the runtime's approver. */
  readonly approver: Approver | undefined;
  /** The session whose remembered approvals count (see `ExecuteOptions.session`). */
  readonly session: string | null | undefined;
  /** Who makes the calls, carried by every audit event of them (see `ExecuteOptions.caller`). */
  readonly caller?: CallerIdentity | undefined;
  /** Hears each audit event of the turn's calls (see `ExecuteOptions.onEvent`). */
  readonly onEvent?: ((event: AuditEvent) => void) | undefined;
  /** Cancels every call of the turn. */
  readonly signal: AbortScope;
  /**
   * `true`: each call's end event is written when it ends and its result is given once its
   * events are stored (`turn().call`). `false`: the caller writes the end events of all
   * calls, in call order, with {@link CallPipeline.endBatch} (`execute`).
   */
  readonly eachCall: boolean;
}

/** What a caller may add to one call. */
export interface ArriveOptions {
  /** Cancels this call only; it must also abort when the turn's signal does. */
  readonly signal?: AbortScope;
  /** The answer to the call's approval, given beforehand (a framework asked the person). */
  readonly approval?: ApprovalAnswer;
}

/** One call on its way through the pipeline. */
interface Entry {
  readonly call: ToolCall;
  readonly signal: AbortScope;
  readonly approval: ApprovalAnswer | undefined;
  /** Audit writes to wait for before the call's result is given. */
  readonly pending: Promise<void>[];
  prepared: PreparedCall | undefined;
  decision: Decision | undefined;
  admission: Admission | undefined;
  /** The result of a call taken out of the queue before it ran (denied). */
  refusal: CallResult | undefined;
  /** While its approval is asked: what ends the wait, and what settles with the answers. */
  asking: { readonly scope: AbortScope; readonly answered: Promise<void> } | undefined;
  /** It ended before its answer came: the answer is not recorded for it. */
  ended: boolean;
}

const noop = (): void => {};

const closedReason = (signal: AbortScope): string | undefined =>
  signal.reason instanceof HintgateError && signal.reason.code === 'runtime_closed'
    ? signal.reason.message
    : undefined;

/**
 * The calls of one turn, from arrival to result: prepare (resolve, validate, keys), admit
 * into the lock queue in arrival order, decide, ask for approval while holding the call's
 * place, run, audit. A call the policy allows runs as soon as the calls it conflicts with
 * are done; a call that asks waits in its place for its answer (later conflicting calls
 * wait behind it, others go on) and runs once approved, or leaves the queue at once when
 * denied. `ask`s whose decisions come together are put to the approver as one group.
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
  readonly #decideContext: DecideContext;
  readonly #capOf: (origin: string) => number;
  readonly #prepareContext: PrepareContext;
  readonly #gatherer: AskGatherer<Entry>;
  readonly #entries: Entry[] = [];
  /** Audit writes of the whole turn, when the caller writes the end events. */
  readonly #pending: Promise<void>[] = [];
  readonly #audit: BatchAudit;

  constructor(context: TurnContext, setup: TurnSetup) {
    this.#context = context;
    this.#setup = setup;
    this.#decideContext = setup.session === undefined ? {} : { session: setup.session };
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
    this.#gatherer = new AskGatherer(
      (entries) => this.#ask(entries, setup.approver),
      (run) => context.clock.setTimeout(run, 0),
    );
  }

  /**
   * Takes one call: its place in the lock queue is taken now (once it is prepared, and after
   * every call that arrived before it, in any turn of the runtime). Resolves with its result;
   * never rejects, except, when each call writes its own events, with `AuditWriteError`.
   */
  arrive(call: ToolCall, options?: ArriveOptions): CallResult | Promise<CallResult> {
    const entry: Entry = {
      call,
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
    this.#gatherer.arrived();
    const context = this.#context;
    const prepared = prepareCall(call, this.#prepareContext);
    let outcome: CallResult | Promise<CallResult>;
    if (!(prepared instanceof Promise) && !('registered' in prepared)) {
      this.#gatherer.decided();
      outcome = prepared;
    } else if (!(prepared instanceof Promise) && context.arrivals.idle) {
      outcome = this.#admit(entry, prepared);
    } else {
      outcome = this.#admitInOrder(entry, prepared);
    }
    return this.#setup.eachCall ? this.#audit.endEach(entry, outcome) : outcome;
  }

  /**
   * Writes the end events of every call, in call order, and waits for the turn's audit
   * writes (`execute`). Rejects with `AuditWriteError`, carrying the results, when a sink
   * failed.
   */
  endBatch(results: CallResult[]): CallResult[] | Promise<CallResult[]> {
    return this.#audit.endBatch(this.#entries, results, this.#pending);
  }

  /** Waits for the call's place, then admits it (see {@link ArrivalOrder}). */
  #admitInOrder(entry: Entry, prepared: Prepared | Promise<Prepared>): Promise<CallResult> {
    const admitHere = this.#context.arrivals.take();
    return new Promise<CallResult>((resolve) => {
      const admit = (ready: Prepared): void => {
        if (!('registered' in ready)) {
          this.#gatherer.decided();
          admitHere(noop);
          resolve(ready);
          return;
        }
        admitHere(() => resolve(this.#admit(entry, ready)));
      };
      if (!(prepared instanceof Promise)) {
        admit(prepared);
        return;
      }
      prepared.then(admit, (error: unknown) => {
        this.#gatherer.decided();
        admitHere(noop);
        resolve(this.#failedInside(entry.call, error));
      });
    });
  }

  /** Admits a prepared call, decides it and, when it asks, holds its place for the answer. */
  #admit(entry: Entry, prepared: PreparedCall | CallResult): CallResult | Promise<CallResult> {
    if (!('registered' in prepared)) {
      this.#gatherer.decided();
      return prepared;
    }
    entry.prepared = prepared;
    const decision = decidePolicy(prepared, this.#context.authorizer, this.#decideContext);
    if (!(decision instanceof Promise) && decision.decision !== 'ask') {
      entry.decision = decision;
      this.#gatherer.decided();
      if (decision.decision === 'deny') return this.#deniedResult(prepared, decision);
      return this.#schedule(entry, false);
    }
    const result = this.#schedule(entry, true);
    if (decision instanceof Promise) {
      decision
        .then((value) => this.#decided(entry, value))
        .catch((error: unknown) => this.#refuse(entry, this.#failedInside(entry.call, error)));
    } else {
      this.#decided(entry, decision);
    }
    return result;
  }

  /** What to do with a call on hold once its decision is known. */
  #decided(entry: Entry, decision: Decision): void {
    entry.decision = decision;
    if (decision.decision === 'allow') {
      this.#gatherer.decided();
      this.#proceed(entry);
    } else if (decision.decision === 'deny') {
      this.#gatherer.decided();
      this.#refuse(entry, this.#deniedResult(entry.prepared as PreparedCall, decision));
    } else if (entry.signal.aborted) {
      // Cancelled before anyone was asked: nobody needs to be.
      this.#gatherer.decided();
    } else if (entry.approval !== undefined) {
      this.#gatherer.decided();
      const answer = entry.approval;
      this.#ask([entry], () => answer);
    } else {
      this.#gatherer.decided(entry);
    }
  }

  #deniedResult(call: PreparedCall, decision: Decision): CallResult {
    return failedResult(
      call,
      'denied',
      deniedMessage(call.name, decision.reason, decision.message),
    );
  }

  /** Lets a call on hold go on, unless its wait already ended (it was cancelled). */
  #proceed(entry: Entry): void {
    const { admission } = entry;
    if (admission !== undefined) this.#context.scheduler.proceed(admission);
  }

  /** Takes a call on hold out of the queue, ending it with `result` (unless it ended). */
  #refuse(entry: Entry, result: CallResult): void {
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
  #ask(group: readonly Entry[], approver: Approver | undefined): void {
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
          const entry = entries[position] as Entry;
          if (!entry.ended) this.#audit.record(type, entry, extra);
        },
      },
    ).then(settle, (error: unknown) => {
      // A bug of ours must not leave the calls waiting for ever.
      settle(
        entries.map((entry) => ({
          allowed: false,
          result: this.#failedInside(entry.call, error),
          decision: entry.decision as Decision,
        })),
      );
    });
    for (const entry of entries) entry.asking = { scope, answered };
  }

  /** Admits a call into the scheduler; resolves with its result once it ran or did not. */
  #schedule(entry: Entry, hold: boolean): Promise<CallResult> {
    const call = entry.prepared as PreparedCall;
    const { scheduler } = this.#context;
    const originLimit = this.#context.registry.origin(call.origin)?.rateLimit;
    const admission = scheduler.admit({
      id: call.id,
      locks: this.#context.locksOf(call),
      origin: call.origin,
      concurrency: this.#capOf(call.origin),
      ...(call.tool.rateLimit === undefined
        ? {}
        : { rateLimit: { key: `${call.origin}\u0000${call.name}`, limit: call.tool.rateLimit } }),
      ...(originLimit === undefined
        ? {}
        : { originRateLimit: { key: call.origin, limit: originLimit } }),
      signal: entry.signal,
      hold,
    });
    entry.admission = admission;
    return admission.granted.then((grant) => this.#run(entry, grant));
  }

  /** Runs a granted call, or gives the result of one that may not run. */
  #run(entry: Entry, grant: Grant): CallResult | Promise<CallResult> {
    const call = entry.prepared as PreparedCall;
    // Settled: the scheduler's ticket is not needed any more.
    entry.admission = undefined;
    if (!grant.ok) {
      if (grant.reason === 'withdrawn') return entry.refusal as CallResult;
      const closed = grant.reason === 'cancelled' ? closedReason(entry.signal) : undefined;
      const message = `Tool "${call.name}" did not run: ${grant.message}${closed === undefined ? '' : ` (${closed})`}`;
      const result = failedResult(call, grant.reason, message, { queuedMs: grant.queuedMs });
      // Its whole approval group was cancelled: the answers come at once, and are recorded
      // before the call's end. Cancelled alone, it ends now and its answer goes unrecorded.
      const { asking } = entry;
      if (asking?.scope.aborted === true) return asking.answered.then(() => result);
      entry.ended = true;
      return result;
    }
    const context = this.#context;
    const decision = entry.decision as Decision;
    this.#audit.record('call.started', entry, {
      decision: decision.decision,
      reason: decision.reason,
      queuedMs: grant.queuedMs,
    });
    const { lease } = grant;
    const running = runCall(call, lease, {
      clock: context.clock,
      random: context.random,
      signal: entry.signal,
      timeoutMs:
        call.call.timeoutMs ??
        call.registered.timeoutMs ??
        call.tool.timeoutMs ??
        context.defaultTimeoutMs,
      maxOutputChars: context.maxOutputChars,
      retry: resolveRetry(call.tool.retry, context.retry),
      releaseGraceMs: context.releaseGraceMs,
      queuedMs: grant.queuedMs,
    }).catch((error: unknown) => {
      // A bug of ours must not leak the call's locks or reject the turn.
      lease.settle(false);
      lease.release();
      return this.#failedInside(call, error, { attempts: 1, queuedMs: grant.queuedMs });
    });
    return running;
  }

  #failedInside(
    call: { readonly id: string; readonly name: string },
    error: unknown,
    facts: { attempts?: number; queuedMs?: number } = {},
  ): CallResult {
    const reason = error instanceof Error ? error.message : String(error);
    return failedResult(
      call,
      'tool_error',
      `Tool "${call.name}" failed inside hintgate: ${reason}.`,
      facts,
    );
  }
}
