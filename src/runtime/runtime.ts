import type { AuditEvent, CallerIdentity } from '../audit/index.js';
import type { ApprovalAnswer, Approver, Mode } from '../policy/index.js';
import type { ToolRegistry } from '../registry/index.js';
import type { AbortScope, LockMode } from '../schedule/index.js';
import type { CallErrorCode, CallResult, ToolClass, ToolListing } from '../tool/index.js';
import type { ToolCall } from './tool-call.js';

/** Options of {@link Runtime.close}. */
export interface CloseOptions {
  /**
   * How long batches under way may run on before they are cancelled, in milliseconds.
   * Default 0: cancelled at once.
   */
  readonly graceMs?: number;
}

/** Options of {@link Runtime.execute} and {@link Runtime.turn}. */
export interface ExecuteOptions {
  /**
   * Cancels the batch (or turn): running tools see their signal abort; calls queued or
   * waiting for approval end `cancelled` without running. An `AbortSignal`, or an
   * `AbortScope`, which has the part of one the runtime reads and costs less to make (an
   * MCP server makes one per request).
   */
  readonly signal?: AbortSignal | AbortScope;
  /** Scopes of the caller for this batch, overriding the runtime's. */
  readonly scopes?: readonly string[];
  /**
   * Who to ask about this batch's approvals instead of the runtime's approver: for example
   * the MCP client that sent the calls.
   */
  readonly approver?: Approver;
  /**
   * The session the batch belongs to, for approvals remembered "for the session": absent,
   * the runtime's own; a string, a separate one (one per MCP client connection); `null`,
   * none (a "session" answer then counts once).
   */
  readonly session?: string | null;
  /**
   * Who makes the calls (an MCP client's name and version, the transport, the token's
   * principal): carried by every audit event of the batch's calls. Default none.
   */
  readonly caller?: CallerIdentity;
  /**
   * Hears every audit event of the batch's calls as it is made, whether or not the runtime
   * has audit sinks (the gateway puts them on the call's OpenTelemetry span). A listener
   * that throws is ignored. Default none.
   */
  readonly onEvent?: (event: AuditEvent) => void;
}

/** Options of one call of a turn ({@link Turn.call}). */
export interface TurnCallOptions {
  /**
   * Cancels this call only: queued or waiting for approval, it ends `cancelled` without
   * running (and leaves the lock queue at once); running, its tool's signal aborts.
   */
  readonly signal?: AbortSignal;
  /**
   * The answer to this call's approval when the caller has asked the person already (an
   * agent framework's own approval step). Used only when the policy asks about the call: it
   * then takes the approver's part, so it is audited and remembered (`once`, `session`,
   * `always`) exactly as an approver's answer. It never overrides a denial, and is not used
   * for a call the policy allows.
   */
  readonly approval?: ApprovalAnswer;
}

/**
 * The calls of one model turn, handed over one at a time as they arrive (a model's
 * streamed response, an agent framework calling one tool at a time). Calls are admitted
 * in the order `call` is invoked, with the same rules as one `execute` batch.
 */
export interface Turn {
  /**
   * The turn's id: the `batchId` of its audit events. A turn may last as long as its caller
   * likes (ids must stay unique within it); `end` is needed only for the gathered results,
   * and stops following the turn's `signal`.
   */
  readonly id: string;
  /**
   * Admits one call now, behind every call given to this runtime before it, and resolves
   * with its result once it ran (or did not) and its audit events are stored. Never rejects
   * for a tool's problem; rejects with HintgateError for a malformed call or options
   * (`invalid_calls`, `invalid_option`), an id used before in the turn, a call after
   * {@link Turn.end} (`invalid_calls`) or after `close` (`runtime_closed`), and with
   * `AuditWriteError` (carrying the result) when a sink failed to record it.
   */
  call(toolCall: ToolCall, options?: TurnCallOptions): Promise<CallResult>;
  /**
   * Says no more calls come, and resolves with the results of every call of the turn, in
   * call order, once all have ended. Rejects with `AuditWriteError`, carrying all results,
   * when a sink failed to record one of them. Calling it again returns the same promise.
   */
  end(): Promise<CallResult[]>;
}

/** hintgate's decision on one call, made without running it ({@link Runtime.decide}). */
export interface CallDecision {
  /** The call's id, as given. */
  readonly id: string;
  /** The tool name, as given. */
  readonly name: string;
  /**
   * `allow`: it runs without asking. `ask`: it needs a person's answer (the approver's, or
   * one given to {@link Turn.call} as `approval`). `deny`: it will not run, because the
   * policy refuses it or the call cannot run at all (then `error` says why).
   */
  readonly decision: 'allow' | 'deny' | 'ask';
  /** Why: the rule, mode, annotation or remembered approval that decided. */
  readonly reason: string;
  /** For `deny`: the text the call's result will give the model. */
  readonly message?: string;
  /** Set when the call cannot run whatever the policy says (unknown tool, bad arguments). */
  readonly error?: { readonly code: CallErrorCode; readonly message: string };
  /** The origin (server) of the tool, for a call that can run. */
  readonly origin?: string;
  /** The class the policy used, from the effective hints, for a call that can run. */
  readonly class?: ToolClass;
  /** What an approval of the call covers. */
  readonly approvalKeys?: readonly string[];
}

/** Options of {@link Runtime.decide}. */
export interface DecideOptions {
  /** Scopes of the caller, overriding the runtime's. */
  readonly scopes?: readonly string[];
  /** The session whose remembered approvals count (see {@link ExecuteOptions.session}). */
  readonly session?: string | null;
}

/** How {@link Runtime.plan} would schedule one call. */
export interface PlanEntry {
  readonly id: string;
  readonly name: string;
  /** False when the call would fail before scheduling (unknown tool, bad arguments). */
  readonly runnable: boolean;
  /** Why the call cannot run, when `runnable` is false. */
  readonly error?: { readonly code: CallErrorCode; readonly message: string };
  readonly origin?: string;
  readonly class?: ToolClass;
  /** Normalized resource keys. */
  readonly resourceKeys?: readonly string[];
  /** Locks the call takes: `origin:<name>`, resource keys and their ancestors, `world`. */
  readonly locks: ReadonlyArray<{ readonly key: string; readonly mode: LockMode }>;
  /**
   * Ids of the earlier calls of the batch it waits for directly, in call order: on each node
   * it locks, the latest earlier call holding the node exclusively and the conflicting calls
   * after that one. Each conflicts with this call; an earlier conflicting call that one of
   * them already waits for is not repeated. Every earlier call this one conflicts with is in
   * the transitive closure of `waitsFor` (docs/runtime.md, "Order").
   */
  readonly waitsFor: readonly string[];
}

/** What {@link createRuntime} returns. */
export interface Runtime {
  /** The registry tools are resolved from. */
  readonly registry: ToolRegistry;
  /**
   * Runs the calls of one model turn and resolves to one result per call, in call order.
   * Never rejects for a tool's problem; rejects with HintgateError for a malformed batch
   * (`invalid_calls`), or with `AuditWriteError` (carrying the results) when an audit sink
   * failed to record the batch.
   */
  execute(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<CallResult[]>;
  /**
   * Starts a turn whose calls arrive one at a time (see {@link Turn}); `execute(calls)` is
   * a turn given all its calls at once.
   *
   * @throws HintgateError `invalid_option` for bad options, `runtime_closed` once closing.
   */
  turn(options?: ExecuteOptions): Turn;
  /**
   * hintgate's decision on a call, without running it or asking anyone: for an agent
   * framework that asks "does this call need approval?" before it runs the call. Rejects
   * with HintgateError for a malformed call or options.
   */
  decide(call: ToolCall, options?: DecideOptions): Promise<CallDecision>;
  /**
   * Tells, without running anything, each call's class, locks and the earlier calls it waits
   * for directly (see {@link PlanEntry.waitsFor}). Costs time linear in the calls and waits.
   */
  plan(
    calls: readonly ToolCall[],
    options?: { readonly scopes?: readonly string[] },
  ): Promise<PlanEntry[]>;
  /** The policy mode, or `undefined` when a custom authorizer decides. */
  readonly mode: Mode | undefined;
  /**
   * Switches the mode for batches decided from now on.
   *
   * @throws HintgateError for an unknown mode, or with a custom authorizer.
   */
  setMode(mode: Mode): void;
  /**
   * The tools the caller may call, as MCP / model tool-list entries, sorted by name. In
   * mode `plan` only read-only tools are listed. Each entry is frozen and the same object
   * every time for the same tool (copy it to change it); the array is new each time.
   */
  listTools(options?: { readonly scopes?: readonly string[] }): ToolListing[];
  /**
   * A system prompt for the model: the tools the caller may call, grouped read-only / write
   * / destructive by their effective hints, with safety rules and the current mode's rules.
   * Byte-for-byte the same while tools and mode stay the same. `maxToolChars` caps the tool
   * lists of a big catalog (see `buildSystemPrompt`).
   */
  systemPrompt(options?: {
    readonly intro?: string;
    readonly scopes?: readonly string[];
    readonly maxToolChars?: number;
  }): string;
  /** Forgets the approvals remembered for a named session (its client went away). */
  forgetSession(session: string): void;
  /**
   * Closes the runtime: it takes no more calls (`execute` and `Turn.call` reject with
   * `runtime_closed`), lets the calls under way finish for up to `graceMs` (default 0),
   * cancels those still queued, waiting for approval or running (they end `cancelled`,
   * each tool's signal aborted, and are audited), stops
   * reporting tool changes, and flushes and closes the audit sinks. Calling it again returns
   * the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
}
