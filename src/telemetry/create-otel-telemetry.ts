import {
  type Attributes,
  type Context,
  context,
  type Meter,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { AuditEvent } from '../audit/index.js';

/** What the gateway knows of a `tools/call` when it arrives. */
export interface CallSpanStart {
  /** The tool's name as offered downstream. */
  readonly tool: string;
  /** The request's JSON-RPC id. */
  readonly requestId?: string | number;
  /** The upstream server the tool belongs to. */
  readonly server?: string;
  /** The MCP session id (Streamable HTTP). */
  readonly sessionId?: string;
  /** `stdio` or `http`. */
  readonly transport?: string;
  /** The request's `params._meta`, which may carry the caller's `traceparent`. */
  readonly meta?: unknown;
}

/** One call's span; hand it to the runtime with the call and back to {@link OtelTelemetry}. */
export interface CallSpan {
  readonly span: Span;
  readonly context: Context;
  readonly startedAt: number;
}

/** Options of {@link createOtelTelemetry}. */
export interface OtelTelemetryOptions {
  /** Default: the global tracer provider's `hintgate` tracer. */
  readonly tracer?: Tracer;
  /** Default: the global meter provider's `hintgate` meter. */
  readonly meter?: Meter;
}

/** Spans and metrics of tool calls, after the OpenTelemetry GenAI and MCP conventions. */
export interface OtelTelemetry {
  /**
   * Starts the span `execute_tool {tool}` of an incoming call, as a child of the trace
   * context in its `_meta` (`traceparent`, `tracestate`) when there is one.
   */
  startCall(start: CallSpanStart): CallSpan;
  /**
   * Records an audit event of the call on its span: class, annotations, decision and its
   * reason, the approval channel, queue and run time, attempts; ends the span with the
   * call's last event. Keeps the metrics.
   */
  record(span: CallSpan, event: AuditEvent): void;
  /**
   * Starts the client span `tools/call {name}` of the upstream request made for a call and
   * returns the `_meta` to send with it (its `traceparent`), and how to end it.
   */
  upstream(
    span: CallSpan | undefined,
    name: string,
    server: string,
  ): { readonly meta: Record<string, string>; end(error?: string): void };
}

const carrierGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' && value.length <= 512 ? value : undefined;
  },
};

const annotationAttributes = (prefix: string, value: unknown): Attributes => {
  const out: Attributes = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
    const v = (value as Record<string, unknown>)[hint];
    if (typeof v === 'boolean') out[`${prefix}.${hint}`] = v;
  }
  return out;
};

/**
 * Telemetry on the OpenTelemetry API. Without a registered SDK the API's no-op providers
 * make every call here nearly free; the audit log stays the record of truth either way.
 */
export function createOtelTelemetry(options: OtelTelemetryOptions = {}): OtelTelemetry {
  const tracer = options.tracer ?? trace.getTracer('hintgate');
  const meter = options.meter ?? metrics.getMeter('hintgate');
  const calls = meter.createCounter('hintgate.calls', {
    description: 'Tool calls by tool, server, status and decision.',
  });
  const queueTime = meter.createHistogram('hintgate.call.queue.duration', {
    unit: 's',
    description: 'Time a call waited for conflicting calls, slots, rate limits and approval.',
  });
  const runTime = meter.createHistogram('hintgate.call.run.duration', {
    unit: 's',
    description: 'Time from the first invocation of the tool to its end, retries included.',
  });
  const pending = meter.createUpDownCounter('hintgate.approvals.pending', {
    description: 'Calls waiting for a person to approve them.',
  });
  const limited = meter.createCounter('hintgate.rate_limit.rejections', {
    description: 'Calls refused because a rate limit was spent.',
  });
  const decisions = new WeakMap<CallSpan, { decision?: string; waiting: boolean }>();

  return {
    startCall(start) {
      const meta = start.meta;
      const parent =
        typeof meta === 'object' && meta !== null && !Array.isArray(meta)
          ? propagation.extract(context.active(), meta as Record<string, unknown>, carrierGetter)
          : context.active();
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': start.tool,
        'gen_ai.tool.type': 'function',
        'mcp.method.name': 'tools/call',
      };
      if (start.requestId !== undefined) {
        attributes['jsonrpc.request.id'] = String(start.requestId);
        attributes['gen_ai.tool.call.id'] = String(start.requestId);
      }
      if (start.server !== undefined) attributes['hintgate.server'] = start.server;
      if (start.sessionId !== undefined) attributes['mcp.session.id'] = start.sessionId;
      if (start.transport !== undefined) attributes['network.transport'] = start.transport;
      const span = tracer.startSpan(
        `execute_tool ${start.tool}`,
        { kind: SpanKind.SERVER, attributes },
        parent,
      );
      return { span, context: trace.setSpan(parent, span), startedAt: Date.now() };
    },

    record(call, event) {
      const { span } = call;
      let state = decisions.get(call);
      if (state === undefined) {
        state = { waiting: false };
        decisions.set(call, state);
      }
      const attributes: Attributes = {};
      if (event.class !== undefined) attributes['hintgate.class'] = event.class;
      if (event.origin !== undefined) attributes['hintgate.origin'] = event.origin;
      if (event.decision !== undefined) {
        attributes['hintgate.decision'] = event.decision;
        state.decision = event.decision;
      }
      if (event.reason !== undefined) attributes['hintgate.decision.reason'] = event.reason;
      const extra = event as AuditEvent & {
        effective?: unknown;
        claimed?: unknown;
        verified?: unknown;
      };
      Object.assign(attributes, annotationAttributes('hintgate.effective', extra.effective));
      Object.assign(attributes, annotationAttributes('hintgate.claimed', extra.claimed));
      if (typeof extra.verified === 'boolean') attributes['hintgate.verified'] = extra.verified;
      switch (event.type) {
        case 'approval.requested':
          state.waiting = true;
          pending.add(1);
          span.addEvent('approval.requested');
          break;
        case 'approval.granted':
        case 'approval.denied':
          if (state.waiting) pending.add(-1);
          state.waiting = false;
          if (event.answeredBy !== undefined) {
            attributes['hintgate.approval.channel'] = event.answeredBy.channel;
          }
          span.addEvent(event.type);
          break;
        default:
          break;
      }
      span.setAttributes(attributes);
      if (event.type !== 'call.succeeded' && event.type !== 'call.failed') return;
      if (state.waiting) pending.add(-1);
      state.waiting = false;
      const status = event.status ?? (event.type === 'call.succeeded' ? 'ok' : 'error');
      span.setAttributes({
        'hintgate.status': status,
        ...(event.attempts === undefined ? {} : { 'hintgate.attempts': event.attempts }),
        ...(event.queuedMs === undefined ? {} : { 'hintgate.queue_ms': event.queuedMs }),
        ...(event.runMs === undefined ? {} : { 'hintgate.run_ms': event.runMs }),
        ...(event.code === undefined ? {} : { 'error.type': event.code }),
      });
      if (event.type === 'call.failed') {
        span.setStatus({ code: SpanStatusCode.ERROR, message: event.message ?? status });
      }
      const labels: Attributes = {
        'gen_ai.tool.name': event.tool ?? 'unknown',
        'hintgate.status': status,
        'hintgate.decision': state.decision ?? (status === 'denied' ? 'deny' : 'allow'),
        ...(event.origin === undefined ? {} : { 'hintgate.server': event.origin }),
      };
      calls.add(1, labels);
      if (event.code === 'rate_limited') limited.add(1, labels);
      if (event.queuedMs !== undefined) queueTime.record(event.queuedMs / 1000, labels);
      if (event.runMs !== undefined && (event.attempts ?? 0) > 0) {
        runTime.record(event.runMs / 1000, labels);
      }
      span.end();
    },

    upstream(call, name, server) {
      const parent = call?.context ?? context.active();
      const span = tracer.startSpan(
        `tools/call ${name}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'mcp.method.name': 'tools/call',
            'gen_ai.tool.name': name,
            'gen_ai.operation.name': 'execute_tool',
            'hintgate.server': server,
          },
        },
        parent,
      );
      const meta: Record<string, string> = {};
      propagation.inject(trace.setSpan(parent, span), meta);
      return {
        meta,
        end(error) {
          if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
          span.end();
        },
      };
    },
  };
}
