import type { AuditEmitter, AuditEvent, CallerIdentity } from '../audit/index.js';
import type { ApprovalAnswer, Approver, Authorizer } from '../policy/index.js';
import type { ToolRegistry } from '../registry/index.js';
import type { AbortScope, Clock, Lock, Scheduler } from '../schedule/index.js';
import type { RateLimit } from '../tool/index.js';
import type { ArrivalOrder } from './arrival-order.js';
import type { PreparedCall } from './prepare-call.js';
import type { ResolvedRetry } from './retry-delay.js';

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
  /** A fresh lookup of each origin's limits, remembered for one turn. */
  originLimits(): (origin: string) => OriginLimits;
  /** Names of the tools the caller may see, for the message about an unknown tool. */
  visibleNames(scopes: readonly string[]): readonly string[];
}

/** The limits of one origin that its calls are admitted with. */
export interface OriginLimits {
  /** Calls of the origin that may run at once (`Infinity` for no cap). */
  readonly concurrency: number;
  /** The origin's rate limit across its tools, if it has one. */
  readonly rateLimit: RateLimit | undefined;
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
   * calls, in call order, with `CallPipeline.endBatch` (`execute`).
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
