import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  resultText,
  tempDir,
  toolsFileServer,
  until,
  writeConfig,
} from '../gateway/gateway.test-helpers.js';
import {
  type HttpServeProcess,
  startHttpGateway,
  startHttpServe,
} from './serve-process.test-helpers.js';

// A `hintgate gateway --http` process turned on by the standard OTEL_* variables exports its
// spans over OTLP/HTTP to a receiver on 127.0.0.1, loading the optional SDK.

interface OtlpSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly kind: number;
  readonly attributes: readonly { key: string; value: Record<string, unknown> }[];
}
interface OtlpTraces {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: OtlpSpan['attributes'] };
    readonly scopeSpans: readonly { readonly spans: readonly OtlpSpan[] }[];
  }[];
}

/** An OTLP/HTTP JSON receiver: what was posted to /v1/traces and /v1/metrics. */
async function startReceiver() {
  const traces: OtlpTraces[] = [];
  const metrics: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      if (req.url === '/v1/traces') traces.push(body as OtlpTraces);
      if (req.url === '/v1/metrics') metrics.push(body);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    traces,
    metrics,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const attribute = (span: { attributes: OtlpSpan['attributes'] }, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

describe('hintgate gateway with OTEL_* variables', () => {
  it('exports the execute_tool and upstream spans of a call over OTLP/HTTP, in the caller trace', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const fixture = await toolsFileServer(
      dir,
      'docs',
      [{ name: 'meta', description: 'Echoes _meta.', annotations: { readOnlyHint: true } }],
      { trusted: true },
    );
    const config = await writeConfig(dir, {
      servers: { docs: fixture.entry },
      mode: 'auto',
      pin: { newTools: 'allow' },
    });
    const gateway: HttpServeProcess = await startHttpGateway(['--config', config.file], {
      env: {
        ...process.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'gateway-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
      timeoutMs: 60_000,
    });
    cleanups.push(() => gateway.stop('SIGKILL'));
    const client = new Client({ name: 'otel-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    cleanups.push(() => client.close());
    await until(async () => (await client.listTools()).tools.some((t) => t.name === 'meta'));
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const result = await client.callTool({
      name: 'meta',
      arguments: {},
      _meta: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    const received = JSON.parse(resultText(result as { content: unknown[] })) as {
      traceparent: string;
    };
    await client.close();
    // A stop flushes what is left.
    expect(await gateway.stop('SIGTERM')).toBe(0);
    await until(() => receiver.traces.length > 0, 20_000);

    const spans = receiver.traces.flatMap((t) =>
      t.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
    );
    const server = spans.find((s) => s.name === 'execute_tool meta');
    const upstream = spans.find((s) => s.name === 'tools/call meta');
    expect(server?.traceId).toBe(traceId);
    expect(server?.parentSpanId).toBe('b7ad6b7169203331');
    expect(upstream?.parentSpanId).toBe(server?.spanId);
    expect(received.traceparent).toBe(`00-${traceId}-${upstream?.spanId}-01`);
    expect(attribute(server as OtlpSpan, 'hintgate.server')).toBe('docs');
    expect(attribute(server as OtlpSpan, 'hintgate.status')).toBe('ok');
    const resource = receiver.traces[0]?.resourceSpans[0]?.resource;
    expect(attribute(resource as { attributes: OtlpSpan['attributes'] }, 'service.name')).toBe(
      'gateway-under-test',
    );
    // Metrics are flushed at the stop too.
    expect(JSON.stringify(receiver.metrics)).toContain('hintgate.calls');
    expect(gateway.stderr()).not.toContain('OpenTelemetry export was asked for');
  });

  it('does the same for hintgate serve, whose runtime writes no audit log', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const serve = await startHttpServe(['--workspace', dir], {
      env: {
        ...process.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
      timeoutMs: 60_000,
    });
    cleanups.push(() => serve.stop('SIGKILL'));
    const client = new Client({ name: 'otel-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    const traceId = '1bf92f3577b34da6a3ce929d0e0e4736';
    const result = await client.callTool({
      name: 'list_directory',
      arguments: { path: '.' },
      _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(result.isError).not.toBe(true);
    await client.close();
    expect(await serve.stop('SIGTERM')).toBe(0);
    await until(() => receiver.traces.length > 0, 20_000);
    const spans = receiver.traces.flatMap((t) =>
      t.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
    );
    const span = spans.find((s) => s.name === 'execute_tool list_directory');
    expect(span?.traceId).toBe(traceId);
    expect(attribute(span as OtlpSpan, 'hintgate.class')).toBe('read');
    expect(attribute(span as OtlpSpan, 'hintgate.status')).toBe('ok');
    const resource = receiver.traces[0]?.resourceSpans[0]?.resource;
    expect(attribute(resource as { attributes: OtlpSpan['attributes'] }, 'service.name')).toBe(
      'hintgate-serve',
    );
  });
});
