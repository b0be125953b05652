import type { AuditEvent } from '../audit/index.js';
import type { EffectiveHints, ToolAnnotations } from '../tool/index.js';

/** What the MCP server knows of a `tools/call` when it arrives. */
export interface CallTelemetryStart {
  /** The tool's name as the client called it. */
  readonly tool: string;
  /** The request's JSON-RPC id (the call id of the audit log). */
  readonly requestId?: string | number;
  /** The origin (upstream server) of the tool, when the name resolved to one. */
  readonly server?: string;
  /** `stdio` or `http`, as the audit log's caller says. */
  readonly transport?: string;
  /** The request's `params._meta`, which may carry the caller's `traceparent`. Hostile. */
  readonly meta?: unknown;
  /** The annotations the tool claims (three states). */
  readonly claimed?: ToolAnnotations;
  /** The hints hintgate acts on (spec defaults when the claims are not trusted). */
  readonly effective?: EffectiveHints;
  /** Whether the claims are trusted: by config, a per-tool override or a verified pin. */
  readonly verified?: boolean;
}

/** One upstream request's trace: the `_meta` to send with it, and how to end it. */
export interface UpstreamTrace {
  /** Keys for the request's `_meta` (`traceparent`, `tracestate`). */
  readonly meta: Readonly<Record<string, string>>;
  /** Ends the upstream span; `error` marks it failed with that message. */
  end(error?: string): void;
}

/**
 * Tracing of tool calls, as the MCP server and the upstream connections use it. Free of
 * OpenTelemetry types, so that the rest of hintgate compiles and runs without the optional
 * OpenTelemetry packages; `createOtelTelemetry` implements it.
 */
export interface CallTelemetry {
  /**
   * Runs one call as `run` inside its span, which continues the trace of the request's
   * `_meta.traceparent`: upstream requests made meanwhile (in the same async context) are
   * its children. `run` receives the listener of the call's audit events, which are
   * recorded on the span and in the metrics; the span ends when `run` settles.
   */
  call<T>(
    start: CallTelemetryStart,
    run: (onEvent: (event: AuditEvent) => void) => Promise<T>,
  ): Promise<T>;
  /**
   * Starts the client span of a `tools/call` sent now to upstream `server` for tool `name`
   * (its name there), a child of the call under way.
   */
  upstream(name: string, server: string): UpstreamTrace;
}
