import { HintgateError } from '../errors/index.js';

/** Options of {@link startOtelSdk}. */
export interface StartOtelSdkOptions {
  /** `service.name` of what is exported; `OTEL_SERVICE_NAME` in `env` wins over it. */
  readonly serviceName: string;
  /**
   * Base URL of an OTLP/HTTP receiver (`/v1/traces`, `/v1/metrics` are added), used only
   * when `env` names no OTLP endpoint. Default: the SDK's, from `OTEL_*` variables.
   */
  readonly endpoint?: string;
  /** The environment the `OTEL_*` variables are read from. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Loads an optional package by name. Default: `import()`. */
  readonly load?: (specifier: string) => Promise<unknown>;
}

/** The packages telemetry needs, which hintgate has as optional dependencies. */
export const OTEL_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-node',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-http',
] as const;

/**
 * Loads one optional OpenTelemetry package, or throws a HintgateError that names it and
 * says how to install it (or how to turn telemetry off).
 */
export async function loadOtelPackage<T>(
  specifier: (typeof OTEL_PACKAGES)[number],
  load: (specifier: string) => Promise<unknown> = (s) => import(s),
): Promise<T> {
  try {
    return (await load(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    throw new HintgateError(
      'invalid_config',
      missing
        ? `OpenTelemetry export was asked for (OTEL_* variables or telemetry: in the configuration), but ${specifier} is not installed. Install the optional packages next to hintgate (npm install ${OTEL_PACKAGES.join(' ')}), or turn telemetry off (unset the OTEL_* variables, or telemetry: false).`
        : `OpenTelemetry export was asked for, but ${specifier} could not be loaded: ${error instanceof Error ? error.message : String(error)}. Reinstall it (npm install ${specifier}), or turn telemetry off (telemetry: false).`,
      { cause: error },
    );
  }
}

const ENDPOINT_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
] as const;

/**
 * Starts the OpenTelemetry Node SDK (traces and metrics; W3C trace context; an
 * AsyncLocalStorage context manager), configured by the standard `OTEL_*` variables (OTLP
 * over HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` by default), or exporting to `endpoint` when
 * the environment names none. The SDK is an optional dependency, loaded only here;
 * resolves to the function that flushes and stops it.
 *
 * @throws HintgateError `invalid_config` naming a package that is not installed.
 */
export async function startOtelSdk(options: StartOtelSdkOptions): Promise<() => Promise<void>> {
  const env = options.env ?? process.env;
  const { load } = options;
  const sdkModule = await loadOtelPackage<typeof import('@opentelemetry/sdk-node')>(
    '@opentelemetry/sdk-node',
    load,
  );
  const fromConfig =
    options.endpoint !== undefined && ENDPOINT_VARIABLES.every((name) => env[name] === undefined)
      ? options.endpoint
      : undefined;
  let exporters: Partial<import('@opentelemetry/sdk-node').NodeSDKConfiguration> = {};
  if (fromConfig !== undefined) {
    const traces = await loadOtelPackage<typeof import('@opentelemetry/exporter-trace-otlp-http')>(
      '@opentelemetry/exporter-trace-otlp-http',
      load,
    );
    const metrics = await loadOtelPackage<
      typeof import('@opentelemetry/exporter-metrics-otlp-http')
    >('@opentelemetry/exporter-metrics-otlp-http', load);
    exporters = {
      traceExporter: new traces.OTLPTraceExporter({ url: `${fromConfig}/v1/traces` }),
      metricReaders: [
        new sdkModule.metrics.PeriodicExportingMetricReader({
          exporter: new metrics.OTLPMetricExporter({ url: `${fromConfig}/v1/metrics` }),
        }),
      ],
    };
  }
  const sdk = new sdkModule.NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? options.serviceName,
    instrumentations: [],
    ...exporters,
  });
  sdk.start();
  return () => sdk.shutdown();
}
