import type { CallerIdentity } from '../audit/audit-event.js';
import type { Approver, Mode } from '../policy/policy-types.js';
import type { ToolRegistry } from '../registry/index.js';
import type { LockMode } from '../schedule/lock-mode.js';
import type { ToolClass } from '../tool/classify.js';
import type { ToolListing } from '../tool/tool.js';
import type { CallErrorCode, CallResult } from '../tool/tool-result.js';
import type { ToolCall } from './tool-call.js';

/** Options of {@link Runtime.close}. */
export interface CloseOptions {
  /**
   * How long batches under way may run on before they are cancelled, in milliseconds.
   * Default 0: cancelled at once.
   */
  readonly graceMs?: number;
}

/** Options of {@link Runtime.execute}. */
export interface ExecuteOptions {
  /** Cancels the batch: running tools see their signal abort, queued calls end `cancelled`. */
  readonly signal?: AbortSignal;
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
  /** Ids of the earlier calls of the batch it waits for. */
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
  /** Tells, without running anything, each call's class, locks and the earlier calls it waits for. */
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
   * mode `plan` only read-only tools are listed.
   */
  listTools(options?: { readonly scopes?: readonly string[] }): ToolListing[];
  /**
   * A system prompt for the model: the tools the caller may call, grouped read-only / write
   * / destructive by their effective hints, with safety rules and the current mode's rules.
   * Byte-for-byte the same while tools and mode stay the same.
   */
  systemPrompt(options?: { readonly intro?: string; readonly scopes?: readonly string[] }): string;
  /** Forgets the approvals remembered for a named session (its client went away). */
  forgetSession(session: string): void;
  /**
   * Closes the runtime: it takes no more calls (`execute` rejects with `runtime_closed`),
   * lets the batches under way finish for up to `graceMs` (default 0), cancels those still
   * running (their calls end `cancelled`, each tool's signal aborted, and are audited), stops
   * reporting tool changes, and flushes and closes the audit sinks. Calling it again returns
   * the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
}
