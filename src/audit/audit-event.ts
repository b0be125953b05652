import type { ApprovalAnswerer, Mode } from '../policy/index.js';
import type { CallErrorCode, CallStatus, ToolClass } from '../tool/index.js';

/** Kinds of audit events. */
export const AUDIT_EVENT_TYPES = [
  'call.started',
  'call.succeeded',
  'call.failed',
  'approval.requested',
  'approval.granted',
  'approval.denied',
  'tool.changed',
  'mode.changed',
  'upstream.rate_limited',
  'state.changed',
] as const;

/** One of {@link AUDIT_EVENT_TYPES}. */
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/**
 * Who made a call: for an MCP client, the name and version it gave, the transport, and for
 * Streamable HTTP with a token, the principal the token stands for. Strings from a client
 * are capped in length.
 */
export interface CallerIdentity {
  /** The MCP client's `clientInfo`, as it stated it. */
  readonly client?: { readonly name: string; readonly version?: string };
  /** `stdio`, `http`, or how else the call came (`in-process` for a caller in code). */
  readonly transport?: string;
  /** The principal of the bearer token the request carried (HTTP). */
  readonly principal?: string;
}

/**
 * One audit record. Call events carry the call's identity, its class, approval keys and an
 * argument digest; the arguments themselves only when the runtime is told to include them,
 * with secrets redacted.
 */
export interface AuditEvent {
  readonly type: AuditEventType;
  /** ISO-8601 wall-clock time of the event. */
  readonly time: string;
  /** Id of the `execute` batch the call belongs to. */
  readonly batchId?: string;
  readonly callId?: string;
  readonly tool?: string;
  readonly origin?: string;
  /** For call and approval events: the registry layer of the tool's origin. */
  readonly layer?: 'bundled' | 'global' | 'project';
  readonly class?: ToolClass;
  readonly approvalKeys?: readonly string[];
  /** `sha256:` digest of the canonical JSON of the arguments. */
  readonly argsDigest?: string;
  /** Arguments with secret-looking fields redacted, when configured. */
  readonly arguments?: unknown;
  /** The policy decision and its reason (which rule, mode or annotation). */
  readonly decision?: 'allow' | 'deny' | 'ask';
  readonly reason?: string;
  readonly status?: CallStatus;
  readonly code?: CallErrorCode;
  readonly message?: string;
  readonly attempts?: number;
  readonly queuedMs?: number;
  readonly runMs?: number;
  /** For `tool.changed`: what changed. */
  readonly change?: 'added' | 'removed' | 'updated';
  /** For call and approval events: who made the call, when the caller said. */
  readonly caller?: CallerIdentity;
  /** For `approval.granted` / `approval.denied`: who answered, and how. */
  readonly answeredBy?: ApprovalAnswerer;
  /** For `mode.changed`: the mode from now on. */
  readonly mode?: Mode;
  /** For `mode.changed`: the mode before. */
  readonly previousMode?: Mode;
  /** For `mode.changed`: who switched it, and through which channel (`console`). */
  readonly changedBy?: ApprovalAnswerer;
  /**
   * For `upstream.rate_limited` (with `origin`, the server): ISO-8601 time until which its
   * calls wait, because it answered HTTP 429 or a tool error saying it is rate limited.
   */
  readonly until?: string;
  /** For `upstream.rate_limited`: what the server asked to wait, in milliseconds, if it said. */
  readonly retryAfterMs?: number;
  /**
   * For `state.changed`: whether the shared state (Redis) answers now; `message` says why.
   * While `unavailable`, calls that need it end `shared_state_unavailable`.
   */
  readonly stateStatus?: 'ready' | 'unavailable';
}

/**
 * Where audit events go. A sink decides for itself how it batches and when an event is
 * stored, from the event: its `type` (a call's `call.started` and approval events come
 * before its `call.succeeded` / `call.failed`, which the runtime writes last) and its
 * `class` (`read` for a call that changes nothing, by the annotations the runtime trusted).
 */
export interface AuditSink {
  /**
   * Records an event. A returned promise resolves once the event is stored (on disk for a
   * durable sink); `execute` waits for it before it resolves. The runtime waits for a
   * call's earlier events only together with its end event, so a sink may store those with
   * that one.
   */
  write(event: AuditEvent): void | Promise<void>;
  /** Waits until every written event is stored. Optional for a sink that stores at once. */
  flush?(): Promise<void>;
  /** Flushes and frees resources; later writes fail. Optional like `flush`. */
  close?(): Promise<void>;
}
