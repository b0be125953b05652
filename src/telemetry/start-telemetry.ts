import type { CallTelemetry } from './call-telemetry.js';
import { loadOtelPackage, startOtelSdk } from './start-otel-sdk.js';

/** What a configuration file says of telemetry (the gateway's `telemetry` block). */
export interface TelemetrySettings {
  /** `true` turns telemetry on, `false` off whatever the environment says. */
  readonly enabled?: boolean;
  /** `service.name`; `OTEL_SERVICE_NAME` overrides it. */
  readonly serviceName?: string;
  /** Base URL of an OTLP/HTTP receiver, used unless an `OTEL_*` variable names one. */
  readonly endpoint?: string;
}

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /** The configuration's `telemetry` block, if any. */
  readonly config?: TelemetrySettings | undefined;
  /**
   * `service.name` when neither `OTEL_SERVICE_NAME` nor the configuration names one, such
   * as `hintgate-gateway`.
   */
  readonly serviceName: string;
  /** The environment the `OTEL_*` variables are read from. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Loads an optional package by name. Default: `import()`. */
  readonly load?: (specifier: string) => Promise<unknown>;
}

/** Telemetry that was started, and how to flush and stop it. */
export interface RunningTelemetry {
  /** Hand it to `createGateway` / `createMcpToolServer` as `telemetry`. */
  readonly telemetry: CallTelemetry;
  /** Exports what is buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

/**
 * Whether telemetry is on: off with `OTEL_SDK_DISABLED=true`; else as the configuration's
 * `enabled` says; else on when it names an `endpoint` or the standard variables ask for
 * export (an OTLP endpoint, or a traces or metrics exporter other than `none`).
 */
export function telemetryWanted(
  config: TelemetrySettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (config?.enabled !== undefined) return config.enabled;
  if (config?.endpoint !== undefined) return true;
  const exporter = (name: string): boolean => {
    const value = env[name]?.trim();
    return value !== undefined && value !== '' && value !== 'none';
  };
  return (
    env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined ||
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT !== undefined ||
    exporter('OTEL_TRACES_EXPORTER') ||
    exporter('OTEL_METRICS_EXPORTER')
  );
}

/**
 * Starts OpenTelemetry for a gateway or `hintgate serve` when {@link telemetryWanted}
 * says so, and resolves to `undefined` (nothing loaded) otherwise. The OpenTelemetry
 * packages are optional dependencies, loaded only here.
 *
 * @throws HintgateError `invalid_config` naming a package that is not installed.
 */
export async function startTelemetry(
  options: StartTelemetryOptions,
): Promise<RunningTelemetry | undefined> {
  const env = options.env ?? process.env;
  if (!telemetryWanted(options.config, env)) return undefined;
  // The API first: it is what the rest needs, and the likeliest to be missing.
  await loadOtelPackage('@opentelemetry/api', options.load);
  const shutdown = await startOtelSdk({
    serviceName: options.config?.serviceName ?? options.serviceName,
    env,
    ...(options.config?.endpoint === undefined ? {} : { endpoint: options.config.endpoint }),
    ...(options.load === undefined ? {} : { load: options.load }),
  });
  // Imported here so that nothing imports @opentelemetry/api while telemetry is off.
  const { createOtelTelemetry } = await import('./create-otel-telemetry.js');
  return { telemetry: createOtelTelemetry(), shutdown };
}
