import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll } from 'vitest';

/** The OpenTelemetry SDK wired to in-memory exporters for one test file. */
export interface InMemoryOtel {
  /** Every finished span, until `spans.reset()`. */
  readonly spans: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** Collects the metrics now and resolves to every one exported so far. */
  exportedMetrics(): Promise<MetricData[]>;
  /** Collects the metrics now and resolves to `name` in the latest collection. */
  latestMetric(name: string): Promise<MetricData | undefined>;
}

/**
 * Sets up, for the test file that calls it (at its top level), a tracer provider and a
 * meter provider that export to memory (cumulative metrics, collected only on demand),
 * with the W3C trace-context propagator registered globally; with `contextManager`, also
 * the AsyncLocalStorage context manager the Node SDK registers. All of it is shut down and
 * unregistered after the file's tests.
 */
export function inMemoryOtel(options: { readonly contextManager?: boolean } = {}): InMemoryOtel {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager =
    options.contextManager === true ? new AsyncLocalStorageContextManager() : undefined;

  beforeAll(() => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    if (contextManager !== undefined) context.setGlobalContextManager(contextManager.enable());
  });
  afterAll(async () => {
    propagation.disable();
    if (contextManager !== undefined) context.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  });

  return {
    spans,
    tracerProvider,
    meterProvider,
    async exportedMetrics() {
      await reader.forceFlush();
      return exporter.getMetrics().flatMap((m) => m.scopeMetrics[0]?.metrics ?? []);
    },
    async latestMetric(name) {
      await reader.forceFlush();
      return exporter
        .getMetrics()
        .at(-1)
        ?.scopeMetrics[0]?.metrics.find((m) => m.descriptor.name === name);
    },
  };
}
