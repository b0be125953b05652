import type { ApprovalAnswerer, Mode } from '../policy/policy-types.js';
import type { ToolClass } from '../tool/classify.js';
import type { CallErrorCode, CallStatus } from '../tool/tool-result.js';

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
}

/** Options of {@link AuditSink.write}. */
export interface AuditWriteOptions {
  /**
   * True when the writer waits for this event only together with a later event it also
   * writes (the runtime waits for a batch's `call.started` and approval events together
   * with its `call.succeeded` / `call.failed`). A durable sink may then sync this event to
   * disk with that later one instead of on its own. The promise `write` returns still
   * resolves only once the event is stored. Default false.
   */
  readonly deferSync?: boolean;
  /**
   * True when the event belongs to a call that changes nothing, by the annotations the
   * writer used to run it (the runtime: the call's effective class, `read`, which rests on
   * trusted annotations only). A durable sink may then report the event written before it
   * is synced to disk (`createJsonlAuditSink` with `sync: 'auto'`). Default false.
   */
  readonly readOnly?: boolean;
}

/** Where audit events go. */
export interface AuditSink {
  /**
   * Records an event. A returned promise resolves once the event is stored (on disk for a
   * durable sink); `execute` waits for it before it resolves.
   */
  write(event: AuditEvent, options?: AuditWriteOptions): void | Promise<void>;
  /**
   * True when the sink keeps a read-only call's `call.started` (written with `readOnly` and
   * `deferSync`) to itself until its next write, so that nobody can see it before the tool
   * runs (`createJsonlAuditSink` with `sync: 'auto'`). When every sink says so, the runtime
   * writes that event right after it invokes the tool instead of right before, which takes
   * its cost off the call's way; the order of the events stays the same (an event written
   * meanwhile makes the held start go first).
   */
  readonly holdsReadOnlyStarts?: boolean;
  /** Waits until every written event is stored. */
  flush?(): Promise<void>;
  /** Flushes and frees resources; later writes fail. */
  close?(): Promise<void>;
}
