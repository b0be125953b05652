import type { ToolAnnotations } from './annotations.js';
import type { ApprovalKeyResult } from './approval-keys.js';
import type { JsonSchemaObject } from './json-schema.js';
import type { ToolArguments } from './resource-template.js';
import type { ToolSchema } from './tool-schema.js';

/**
 * A call's cancellation as a tool can watch it without an `AbortSignal` (an `AbortSignal`
 * is one): whether and why it aborted, and listeners called once when it does.
 */
export interface ToolCancellation {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What a tool's `execute` gets besides its arguments. */
export interface ToolContext {
  /** Aborts when the call times out or its batch is cancelled. Pass it on to I/O. */
  readonly signal: AbortSignal;
  /**
   * The same cancellation as `signal`, for a tool that only listens for it: reading it makes
   * no `AbortSignal`, which costs a cheap call (a gateway's relay of one) a good part of its
   * time. Set by the runtime; absent when a tool is invoked some other way, so fall back to
   * `signal`.
   */
  readonly cancellation?: ToolCancellation;
  /** The id of the call, as the model gave it. */
  readonly callId: string;
  /** 1 for the first invocation, 2 for the first retry, and so on. */
  readonly attempt: number;
  /**
   * When the call times out, as a `Date.now()` time (its timeout counts from its start,
   * across every attempt): how long a tool may wait for something before the call ends
   * anyway. Set by the runtime; absent when a tool is invoked some other way.
   */
  readonly deadline?: number;
  /**
   * Present when the caller wants to hear how the call advances (an MCP client that sent a
   * `progressToken`): call it as the work advances, `progress` increasing each time.
   */
  readonly onProgress?: (progress: ToolProgress) => void;
}

/** How far a running call got, as its tool reports it (MCP `notifications/progress`). */
export interface ToolProgress {
  /** Work done so far; increases with every report. */
  readonly progress: number;
  /** Work in total, when known. */
  readonly total?: number;
  /** What is being done, for a person. */
  readonly message?: string;
}

/** A per-tool rate limit: at most `max` calls that succeed in any `windowMs` window. */
export interface RateLimit {
  /** Calls allowed per window (a positive integer). */
  readonly max: number;
  /** Length of the sliding window in milliseconds. */
  readonly windowMs: number;
  /**
   * How long a call may wait for quota before it ends `rate_limited`, in milliseconds.
   * Default: `windowMs`.
   */
  readonly maxWaitMs?: number;
}

/** Retries of retryable failures (read-only or idempotent tools only). */
export interface RetryOptions {
  /** Invocations in total, the first included. Default 3; 1 turns retries off. */
  readonly attempts?: number;
  /** Base of the exponential backoff in milliseconds. Default 100. */
  readonly baseDelayMs?: number;
  /** Cap of one backoff delay in milliseconds. Default 5000. */
  readonly maxDelayMs?: number;
}

/** A tool, as {@link defineTool} returns it: validated, normalized and frozen. */
export interface Tool<Args = ToolArguments> {
  /** Unique name within its registry layer (MCP rules: 1-128 of `A-Z a-z 0-9 _ - .`). */
  readonly name: string;
  /**
   * The tool's name on its origin, when it is registered under another name: a gateway
   * offers server `github`'s `delete_repo` as `github__delete_repo` when another server
   * has a `delete_repo` too. Policy rules and remembered approvals bind to the origin and
   * this name, whatever the tool is offered as. Absent: `name`.
   */
  readonly nameOnOrigin?: string;
  /** Display title. */
  readonly title?: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** Annotations as claimed, three states kept. */
  readonly annotations: ToolAnnotations;
  /** Arguments schema. */
  readonly inputSchema: ToolSchema<Args>;
  /** Structured result schema. */
  readonly outputSchema?: ToolSchema<Record<string, unknown>>;
  // Method syntax on purpose: it keeps `Tool<{ path: string }>` assignable to `Tool`; the
  // runtime validates arguments against `inputSchema` before calling either.
  /** Resource keys of a call, for the lock manager. */
  resources?(args: Args): string[];
  /**
   * Identity of an approval, for the policy engine: keys, or keys with the parts of the call
   * the tool could not understand ({@link ApprovalKeys}); may be a promise (the runtime
   * waits for it before it decides the call).
   */
  approvalKey?(args: Args): ApprovalKeyResult | Promise<ApprovalKeyResult>;
  /** Default timeout of a call in milliseconds. */
  readonly timeoutMs?: number;
  /** Rate limit shared by all calls of this tool in one runtime. */
  readonly rateLimit?: RateLimit;
  /** Retry settings; only read-only or idempotent tools may have them. */
  readonly retry?: RetryOptions;
  /** When false, the approval stack is skipped. Default true. */
  readonly gated: boolean;
  /** Scopes a caller must all hold to see the tool. */
  readonly scopes: readonly string[];
  /** Output size limit in characters, overriding the runtime's. */
  readonly maxOutputChars?: number;
  /** Extra metadata (MCP `_meta`), for example hints under `dev.hintgate/`. */
  readonly meta?: Record<string, unknown>;
  /**
   * Fields of the tool's MCP listing hintgate does not interpret (`execution` with its
   * task support, `icons`, fields of later protocol revisions): listed as they are.
   */
  readonly listingExtras?: Readonly<Record<string, unknown>>;
  /** Runs the tool. Returns a string, an object, or an MCP `CallToolResult`. */
  execute(args: Args, context: ToolContext): unknown;
}

/** Renders a tool as an MCP / model tool-list entry. */
export interface ToolListing {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema?: JsonSchemaObject;
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
  /** The tool's {@link Tool.listingExtras}: MCP listing fields carried as they are. */
  readonly extras?: Readonly<Record<string, unknown>>;
}
