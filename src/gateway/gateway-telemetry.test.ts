import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory, type ElicitationScript } from '../mcp/server/mcp-clients.test-helpers.js';
import { createOtelTelemetry } from '../telemetry/create-otel-telemetry.js';
import { inMemoryOtel } from '../telemetry/in-memory-otel.test-helpers.js';
import { createGateway } from './create-gateway.js';
import { resultText, tempDir, toolsFileServer, writeConfig } from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// One call from an MCP client through a real gateway to a real upstream server process,
// traced with the SDK's in-memory exporter: span names, attributes, parent/child links,
// and the traceparent the upstream server received in `_meta`.

// What the Node SDK registers: W3C trace context and an AsyncLocalStorage context.
const { spans, tracerProvider, meterProvider, exportedMetrics } = inMemoryOtel({
  contextManager: true,
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
const clientSpan = '00f067aa0ba902b7';

async function tracedGateway(withTelemetry: boolean, elicitation?: ElicitationScript) {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const wire = join(dir, 'wire.log');
  const fixture = await toolsFileServer(
    dir,
    'docs',
    [
      { name: 'meta', description: 'Echoes _meta.', annotations: { readOnlyHint: true } },
      { name: 'save', description: 'Saves.', annotations: { readOnlyHint: false } },
      {
        name: 'meet',
        description: 'Answers once two calls of it run at once.',
        annotations: { readOnlyHint: true },
      },
    ],
    { trusted: true },
  );
  const entry = fixture.entry as { env: Record<string, string> };
  const config = await writeConfig(dir, {
    servers: { docs: { ...fixture.entry, env: { ...entry.env, FIXTURE_WIRE_LOG: wire } } },
    mode: 'auto',
  });
  await pinGateway({ config });
  const gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
    ...(withTelemetry
      ? {
          telemetry: createOtelTelemetry({
            tracer: tracerProvider.getTracer('hintgate'),
            meter: meterProvider.getMeter('hintgate'),
          }),
        }
      : {}),
  });
  cleanups.push(() => gateway.close());
  const client = await connectInMemory(gateway.toolServer, elicitation);
  cleanups.push(() => client.close());
  return { client: client.client, wire };
}

describe('gateway telemetry', () => {
  it('traces a call as execute_tool under the caller trace, with a tools/call child whose traceparent the upstream receives', async () => {
    spans.reset();
    const { client, wire } = await tracedGateway(true);
    const result = await client.callTool({
      name: 'meta',
      arguments: {},
      _meta: { traceparent: `00-${clientTrace}-${clientSpan}-01`, progressToken: 'p1' },
    });
    const received = JSON.parse(resultText(result as { content: unknown[] })) as {
      traceparent?: string;
      progressToken?: unknown;
    };

    const finished = spans.getFinishedSpans();
    const server = finished.find((s) => s.name === 'execute_tool meta');
    const upstream = finished.find((s) => s.name === 'tools/call meta');
    expect(server?.kind).toBe(SpanKind.SERVER);
    expect(upstream?.kind).toBe(SpanKind.CLIENT);
    // The call continues the client's trace; the upstream request is the call's child.
    expect(server?.spanContext().traceId).toBe(clientTrace);
    expect(server?.parentSpanContext?.spanId).toBe(clientSpan);
    expect(upstream?.spanContext().traceId).toBe(clientTrace);
    expect(upstream?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    // The upstream server got the client span's context in _meta, next to the progress
    // token the gateway made for the call (the client's own is not forwarded).
    const expected = `00-${clientTrace}-${upstream?.spanContext().spanId}-01`;
    expect(received.traceparent).toBe(expected);
    expect(typeof received.progressToken).toBe('string');
    expect(received.progressToken).not.toBe('p1');
    const lines = (await readFile(wire, 'utf8')).split('\n').filter((l) => l.includes('"meta"'));
    expect(lines.some((line) => line.includes(expected))).toBe(true);

    expect(server?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'meta',
      'gen_ai.tool.call.id': expect.any(String),
      'mcp.method.name': 'tools/call',
      'hintgate.server': 'docs',
      'hintgate.class': 'read',
      'hintgate.claimed.readOnlyHint': true,
      'hintgate.effective.readOnlyHint': true,
      'hintgate.verified': true,
      'hintgate.decision': 'allow',
      'hintgate.decision.reason': expect.any(String),
      'hintgate.status': 'ok',
      'hintgate.attempts': 1,
      'hintgate.queue_ms': expect.any(Number),
    });
    expect(upstream?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'meta',
      'hintgate.server': 'docs',
    });

    const metrics = await exportedMetrics();
    const calls = metrics.find((m) => m.descriptor.name === 'hintgate.calls');
    expect(calls?.dataPoints).toContainEqual(
      expect.objectContaining({
        attributes: {
          'gen_ai.tool.name': 'meta',
          'hintgate.status': 'ok',
          'hintgate.decision': 'allow',
          'hintgate.server': 'docs',
        },
        value: 1,
      }),
    );
    expect(metrics.map((m) => m.descriptor.name)).toEqual(
      expect.arrayContaining(['hintgate.call.queue.duration', 'hintgate.call.run.duration']),
    );
  });

  it('starts a root trace for a call without traceparent, and records a denied call', async () => {
    spans.reset();
    const { client } = await tracedGateway(true);
    const result = await client.callTool({ name: 'save', arguments: {} });
    expect(result.isError).toBe(true);
    const server = spans.getFinishedSpans().find((s) => s.name === 'execute_tool save');
    expect(server?.parentSpanContext).toBeUndefined();
    expect(server?.attributes).toMatchObject({
      // destructiveHint absent: the spec default, destructive, so auto mode asks; the
      // in-memory client cannot ask its user, so the call is denied.
      'hintgate.class': 'destructive',
      'hintgate.effective.destructiveHint': true,
      'hintgate.decision': 'deny',
      'hintgate.decision.reason': expect.any(String),
      'hintgate.status': 'denied',
    });
    expect(server?.status.code).toBe(2);
    // Denied before it ran: no upstream request, no upstream span.
    expect(spans.getFinishedSpans().some((s) => s.name === 'tools/call save')).toBe(false);
  });

  it('keeps each of two concurrent calls in its own trace, upstream spans included', async () => {
    spans.reset();
    const { client } = await tracedGateway(true);
    const traces = ['11111111111111111111111111111111', '22222222222222222222222222222222'];
    // meet answers only once both calls run upstream at the same time.
    await Promise.all(
      traces.map((trace) =>
        client.callTool({
          name: 'meet',
          arguments: {},
          _meta: { traceparent: `00-${trace}-00f067aa0ba902b7-01` },
        }),
      ),
    );
    const finished = spans.getFinishedSpans();
    for (const trace of traces) {
      const server = finished.filter(
        (s) => s.name === 'execute_tool meet' && s.spanContext().traceId === trace,
      );
      const upstream = finished.filter(
        (s) => s.name === 'tools/call meet' && s.spanContext().traceId === trace,
      );
      expect(server).toHaveLength(1);
      expect(upstream).toHaveLength(1);
      expect(upstream[0]?.parentSpanContext?.spanId).toBe(server[0]?.spanContext().spanId);
    }
  });

  it('records the approval and the channel that answered it', async () => {
    spans.reset();
    const { client } = await tracedGateway(true, {});
    const result = await client.callTool({ name: 'save', arguments: {} });
    expect(result.isError).not.toBe(true);
    const server = spans.getFinishedSpans().find((s) => s.name === 'execute_tool save');
    // The decision as it ended: allowed by the person; the question is the span's event.
    expect(server?.attributes).toMatchObject({
      'hintgate.decision': 'allow',
      'hintgate.approval.channel': 'elicitation',
      'hintgate.status': 'ok',
    });
    expect(server?.events.map((e) => e.name)).toEqual(['approval.requested', 'approval.granted']);
    expect(spans.getFinishedSpans().some((s) => s.name === 'tools/call save')).toBe(true);
  });

  it('sends no trace context upstream without telemetry', async () => {
    const { client } = await tracedGateway(false);
    const result = await client.callTool({
      name: 'meta',
      arguments: {},
      _meta: { traceparent: `00-${clientTrace}-${clientSpan}-01` },
    });
    expect(resultText(result as { content: unknown[] })).toBe('null');
  });
});
