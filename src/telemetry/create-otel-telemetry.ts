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
import { asError } from '../errors/index.js';
import { HINT_NAMES } from '../tool/index.js';
import type { CallTelemetry, CallTelemetryStart, UpstreamTrace } from './call-telemetry.js';

/** One call's span and what the metrics need to know of it until it ends. */
export interface CallSpan {
  readonly span: Span;
  /** The trace context with this span active: the parent of its upstream requests. */
  readonly context: Context;
  /** The policy's decision, once the call has one. */
  decision?: string;
  /** True while the call waits for a person (counted in `hintgate.approvals.pending`). */
  waiting: boolean;
  /** True once the span has ended. */
  ended: boolean;
}

/** Options of {@link createOtelTelemetry}. */
export interface OtelTelemetryOptions {
  /** Default: the global tracer provider's `hintgate` tracer. */
  readonly tracer?: Tracer;
  /** Default: the global meter provider's `hintgate` meter. */
  readonly meter?: Meter;
}

/** Spans and metrics of tool calls, after the OpenTelemetry GenAI and MCP conventions. */
export interface OtelTelemetry extends CallTelemetry {
  /**
   * Starts the span `execute_tool {tool}` of an incoming call, as a child of the trace
   * context in its `_meta` (`traceparent`, `tracestate`) when there is one. Prefer
   * {@link CallTelemetry.call}, which also ends it.
   */
  startCall(start: CallTelemetryStart): CallSpan;
  /**
   * Records an audit event of the call on its span: class, decision and its reason, the
   * approval channel, queue and run time, attempts; ends the span with the call's last
   * event. Keeps the metrics.
   */
  record(span: CallSpan, event: AuditEvent): void;
  /**
   * Starts the client span `tools/call {name}` of an upstream request, a child of `parent`
   * (default: the span active in the current context).
   */
  upstream(name: string, server: string, parent?: CallSpan): UpstreamTrace;
}

/** Longest `traceparent` / `tracestate` value read from a request (the spec's is 512). */
const MAX_CARRIER_VALUE = 512;

const carrierGetter = {
  keys: (carrier: Record<string, unknown>) =>
    ['traceparent', 'tracestate'].filter((key) => Object.hasOwn(carrier, key)),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' && value.length <= MAX_CARRIER_VALUE ? value : undefined;
  },
};

const annotationAttributes = (prefix: string, value: object | undefined): Attributes => {
  const out: Attributes = {};
  if (value === undefined) return out;
  for (const hint of HINT_NAMES) {
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

  const stopWaiting = (call: CallSpan): void => {
    if (call.waiting) pending.add(-1);
    call.waiting = false;
  };

  const startCall = (start: CallTelemetryStart): CallSpan => {
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
      ...annotationAttributes('hintgate.claimed', start.claimed),
      ...annotationAttributes('hintgate.effective', start.effective),
    };
    if (start.requestId !== undefined) {
      attributes['jsonrpc.request.id'] = String(start.requestId);
      attributes['gen_ai.tool.call.id'] = String(start.requestId);
    }
    if (start.server !== undefined) attributes['hintgate.server'] = start.server;
    // As the MCP conventions name them: stdio is a pipe, Streamable HTTP runs on TCP.
    if (start.transport === 'stdio') attributes['network.transport'] = 'pipe';
    if (start.transport === 'http') {
      attributes['network.transport'] = 'tcp';
      attributes['network.protocol.name'] = 'http';
    }
    if (start.verified !== undefined) attributes['hintgate.verified'] = start.verified;
    const span = tracer.startSpan(
      `execute_tool ${start.tool}`,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    return { span, context: trace.setSpan(parent, span), waiting: false, ended: false };
  };

  const record = (call: CallSpan, event: AuditEvent): void => {
    if (call.ended) return;
    const { span } = call;
    const attributes: Attributes = {};
    if (event.class !== undefined) attributes['hintgate.class'] = event.class;
    if (event.origin !== undefined) attributes['hintgate.server'] = event.origin;
    if (event.decision !== undefined) {
      attributes['hintgate.decision'] = event.decision;
      call.decision = event.decision;
    }
    if (event.reason !== undefined) attributes['hintgate.decision.reason'] = event.reason;
    switch (event.type) {
      case 'approval.requested':
        if (!call.waiting) pending.add(1);
        call.waiting = true;
        span.addEvent('approval.requested');
        break;
      case 'approval.granted':
      case 'approval.denied':
        stopWaiting(call);
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
    stopWaiting(call);
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
      'hintgate.decision': call.decision ?? (status === 'denied' ? 'deny' : 'allow'),
      ...(event.origin === undefined ? {} : { 'hintgate.server': event.origin }),
    };
    calls.add(1, labels);
    if (event.code === 'rate_limited') limited.add(1, labels);
    if (event.queuedMs !== undefined) queueTime.record(event.queuedMs / 1000, labels);
    if (event.runMs !== undefined && (event.attempts ?? 0) > 0) {
      runTime.record(event.runMs / 1000, labels);
    }
    call.ended = true;
    span.end();
  };

  return {
    startCall,
    record,

    async call(start, run) {
      const call = startCall(start);
      try {
        return await context.with(call.context, run, undefined, (event: AuditEvent) =>
          record(call, event),
        );
      } catch (error) {
        if (!call.ended) {
          call.span.setStatus({ code: SpanStatusCode.ERROR, message: asError(error).message });
        }
        throw error;
      } finally {
        // A call that ended without an end event (its question deferred to the client's
        // retry, or a failure inside hintgate) still ends its span.
        if (!call.ended) {
          stopWaiting(call);
          call.ended = true;
          call.span.end();
        }
      }
    },

    upstream(name, server, parent) {
      const within = parent?.context ?? context.active();
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
        within,
      );
      const meta: Record<string, string> = {};
      propagation.inject(trace.setSpan(within, span), meta);
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
