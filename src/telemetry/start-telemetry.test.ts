import { describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/index.js';
import { startTelemetry, telemetryWanted } from './start-telemetry.js';

describe('telemetryWanted', () => {
  it('is off by default and on when the standard variables ask for export', () => {
    expect(telemetryWanted(undefined, {})).toBe(false);
    expect(telemetryWanted(undefined, { OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(telemetryWanted(undefined, { OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(telemetryWanted(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(true);
    expect(telemetryWanted(undefined, { OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(telemetryWanted(undefined, { OTEL_METRICS_EXPORTER: 'console' })).toBe(true);
  });

  it('follows the configuration over the variables, and OTEL_SDK_DISABLED over both', () => {
    const asked = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(telemetryWanted({ enabled: false }, asked)).toBe(false);
    expect(telemetryWanted({ enabled: true }, {})).toBe(true);
    expect(telemetryWanted({ endpoint: 'http://c:4318' }, {})).toBe(true);
    expect(telemetryWanted({ enabled: true }, { OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });
});

describe('startTelemetry', () => {
  it('loads nothing while telemetry is off', async () => {
    const loaded: string[] = [];
    const running = await startTelemetry({
      serviceName: 'hintgate-gateway',
      env: {},
      load: async (specifier) => {
        loaded.push(specifier);
        return import(specifier);
      },
    });
    expect(running).toBeUndefined();
    expect(loaded).toEqual([]);
  });

  it('names the optional package that is missing and how to install it or turn telemetry off', async () => {
    for (const missing of ['@opentelemetry/api', '@opentelemetry/sdk-node']) {
      const error = await startTelemetry({
        serviceName: 'hintgate-gateway',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
        load: (specifier) =>
          specifier === missing
            ? Promise.reject(
                Object.assign(new Error(`Cannot find package '${specifier}'`), {
                  code: 'ERR_MODULE_NOT_FOUND',
                }),
              )
            : import(specifier),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HintgateError);
      expect((error as HintgateError).code).toBe('invalid_config');
      expect((error as Error).message).toContain(`${missing} is not installed`);
      expect((error as Error).message).toContain('npm install @opentelemetry/api');
      expect((error as Error).message).toContain('telemetry: false');
    }
  });
});
