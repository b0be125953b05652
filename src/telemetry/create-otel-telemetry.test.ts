import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../audit/audit-event.js';
import { createOtelTelemetry } from './create-otel-telemetry.js';
import { inMemoryOtel } from './in-memory-otel.test-helpers.js';

const { spans, tracerProvider, meterProvider, exportedMetrics, latestMetric } = inMemoryOtel();

const event = (type: AuditEvent['type'], extra: Partial<AuditEvent> = {}): AuditEvent => ({
  type,
  time: new Date().toISOString(),
  tool: 'fs__write_file',
  origin: 'fs',
  ...extra,
});

describe('createOtelTelemetry', () => {
  const telemetry = createOtelTelemetry({
    tracer: tracerProvider.getTracer('hintgate'),
    meter: meterProvider.getMeter('hintgate'),
  });
  const clientTrace = '0af7651916cd43dd8448eb211c80319c';
  const clientSpan = 'b7ad6b7169203331';

  it('makes the call a child of the caller trace and the upstream request a child of the call', async () => {
    const call = telemetry.startCall({
      tool: 'fs__write_file',
      requestId: 7,
      server: 'fs',
      transport: 'stdio',
      meta: { traceparent: `00-${clientTrace}-${clientSpan}-01`, progressToken: 1 },
    });
    telemetry.record(
      call,
      event('call.started', {
        class: 'write',
        decision: 'ask',
        reason: 'rule #2 asks for write_file',
      }),
    );
    telemetry.record(call, event('approval.requested'));
    telemetry.record(
      call,
      event('approval.granted', { answeredBy: { channel: 'elicitation', who: 'client 1.0' } }),
    );
    const upstream = telemetry.upstream('write_file', 'fs', call);
    expect(upstream.meta.traceparent).toMatch(new RegExp(`^00-${clientTrace}-[0-9a-f]{16}-01$`));
    upstream.end();
    telemetry.record(
      call,
      event('call.succeeded', { status: 'ok', attempts: 1, queuedMs: 520, runMs: 12 }),
    );

    const finished = spans.getFinishedSpans();
    const server = finished.find((s) => s.name === 'execute_tool fs__write_file');
    const client = finished.find((s) => s.name === 'tools/call write_file');
    expect(server?.spanContext().traceId).toBe(clientTrace);
    expect(server?.parentSpanContext?.spanId).toBe(clientSpan);
    expect(client?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(upstream.meta.traceparent).toContain(client?.spanContext().spanId);
    expect(server?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'fs__write_file',
      'gen_ai.tool.call.id': '7',
      'mcp.method.name': 'tools/call',
      'hintgate.server': 'fs',
      'hintgate.class': 'write',
      'hintgate.decision': 'ask',
      'hintgate.decision.reason': 'rule #2 asks for write_file',
      'hintgate.approval.channel': 'elicitation',
      'hintgate.status': 'ok',
      'hintgate.attempts': 1,
      'hintgate.queue_ms': 520,
      'network.transport': 'pipe',
    });

    const exported = await exportedMetrics();
    const names = exported.map((m) => m.descriptor.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'hintgate.calls',
        'hintgate.call.queue.duration',
        'hintgate.call.run.duration',
        'hintgate.approvals.pending',
      ]),
    );
  });

  it('starts a root span without caller context, ignores junk _meta and marks failures', async () => {
    spans.reset();
    for (const meta of [undefined, 'x', [1], { traceparent: 42 }, { traceparent: 'garbage' }]) {
      const call = telemetry.startCall({ tool: 'search', meta });
      telemetry.record(
        call,
        event('call.failed', { tool: 'search', status: 'error', code: 'rate_limited' }),
      );
    }
    const finished = spans.getFinishedSpans();
    expect(finished).toHaveLength(5);
    for (const span of finished) {
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.status.code).toBe(2);
      expect(span.attributes['error.type']).toBe('rate_limited');
    }
    const rejections = await latestMetric('hintgate.rate_limit.rejections');
    expect(rejections?.dataPoints[0]?.value).toBe(5);
  });

  it('counts a call in hintgate.approvals.pending while it waits for a person, and not after', async () => {
    const pendingNow = async (): Promise<number> => {
      const metric = await latestMetric('hintgate.approvals.pending');
      return (metric?.dataPoints ?? []).reduce((sum, point) => sum + (point.value as number), 0);
    };
    const before = await pendingNow();
    const call = telemetry.startCall({ tool: 'fs__write_file', requestId: 'p1', server: 'fs' });
    telemetry.record(call, event('call.started', { class: 'write', decision: 'ask' }));
    telemetry.record(call, event('approval.requested'));
    expect(await pendingNow()).toBe(before + 1);
    telemetry.record(
      call,
      event('approval.granted', { answeredBy: { channel: 'console', who: 'alice' } }),
    );
    expect(await pendingNow()).toBe(before);
    telemetry.record(call, event('call.succeeded', { status: 'ok', attempts: 1 }));
    expect(await pendingNow()).toBe(before);
  });

  it('ends the span of a call that ended without an end event, and counts its approval done', async () => {
    spans.reset();
    const failure = telemetry.call({ tool: 'deploy', requestId: 'r1' }, async (onEvent) => {
      onEvent(event('approval.requested', { tool: 'deploy' }));
      throw new Error('inside hintgate');
    });
    await expect(failure).rejects.toThrow('inside hintgate');
    const deferred = await telemetry.call({ tool: 'deploy', requestId: 'r2' }, async (onEvent) => {
      onEvent(event('approval.requested', { tool: 'deploy' }));
      return 'input_required';
    });
    expect(deferred).toBe('input_required');
    const finished = spans.getFinishedSpans().filter((s) => s.name === 'execute_tool deploy');
    expect(finished).toHaveLength(2);
    expect(finished[0]?.status).toMatchObject({ code: 2, message: 'inside hintgate' });
    const pending = await latestMetric('hintgate.approvals.pending');
    expect(pending?.dataPoints.reduce((sum, point) => sum + (point.value as number), 0)).toBe(0);
  });
});
