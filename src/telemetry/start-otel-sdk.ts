import { HintgateError } from '../errors/index.js';

/** Whether the standard environment asks for OpenTelemetry export. */
export function otelRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return (
    env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined ||
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT !== undefined ||
    (env.OTEL_TRACES_EXPORTER !== undefined && env.OTEL_TRACES_EXPORTER !== 'none') ||
    (env.OTEL_METRICS_EXPORTER !== undefined && env.OTEL_METRICS_EXPORTER !== 'none')
  );
}

/**
 * Starts the OpenTelemetry Node SDK, configured by the standard `OTEL_*` variables (OTLP
 * over HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` by default), with `serviceName` unless
 * `OTEL_SERVICE_NAME` says otherwise. The SDK is an optional dependency, loaded only here;
 * resolves to the function that flushes and stops it.
 */
export async function startOtelSdk(serviceName: string): Promise<() => Promise<void>> {
  let sdkModule: typeof import('@opentelemetry/sdk-node');
  try {
    sdkModule = await import('@opentelemetry/sdk-node');
  } catch (error) {
    throw new HintgateError(
      'invalid_config',
      'OpenTelemetry export was asked for (OTEL_* variables or telemetry: in the config), but @opentelemetry/sdk-node is not installed; install it next to hintgate (npm install @opentelemetry/sdk-node) or unset the OTEL_* variables.',
      { cause: error },
    );
  }
  const sdk = new sdkModule.NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? serviceName,
    instrumentations: [],
  });
  sdk.start();
  return () => sdk.shutdown();
}
