import { describe, expect, it } from 'vitest';
import {
  sectionFailure as failure,
  loadSection as load,
  sectionDocument,
  validateConfigSchema as validate,
} from './config-text.test-helpers.js';

describe('telemetry: in hintgate.yaml', () => {
  it('keeps only what the file states; true and false are short for enabled', () => {
    expect(load('').telemetry).toBeUndefined();
    expect(load('telemetry: true\n').telemetry).toEqual({ enabled: true });
    expect(load('telemetry: false\n').telemetry).toEqual({ enabled: false });
    expect(
      load(`telemetry: { endpoint: "\${OTLP}/", serviceName: gw-1 }\n`, {
        OTLP: 'http://otel-collector:4318',
      }).telemetry,
    ).toEqual({ endpoint: 'http://otel-collector:4318', serviceName: 'gw-1' });
  });

  it('says what is wrong with a bad endpoint, a secret in it, a bad name or an unknown key', () => {
    expect(failure('telemetry: { endpoint: "grpc://c:4317" }\n')).toContain(
      'telemetry.endpoint is not an http:// or https:// URL',
    );
    const secret = failure('telemetry: { endpoint: "http://u:hunter2@c:4318" }\n');
    expect(secret).toContain('set OTEL_EXPORTER_OTLP_HEADERS');
    expect(secret).not.toContain('hunter2');
    expect(failure('telemetry: { serviceName: "a b" }\n')).toContain(
      'telemetry.serviceName is not a usable service name',
    );
    expect(failure('telemetry: { enabled: "yes" }\n')).toContain('telemetry.enabled');
    expect(failure('telemetry: { url: "http://c:4318" }\n')).toMatch(/url.*endpoint/);
    expect(failure('telemetry: { headers: {} }\n')).toContain('OTEL_EXPORTER_OTLP_HEADERS');
    expect(failure('otel: true\n')).toMatch(/otel.*telemetry/);
  });

  it('matches the schema', () => {
    const withServers = sectionDocument;
    expect(validate(withServers('telemetry: { endpoint: "http://c:4318", enabled: true }\n'))).toBe(
      true,
    );
    expect(validate(withServers('telemetry: true\n'))).toBe(true);
    expect(validate(withServers('telemetry: { endpoint: "grpc://c:4317" }\n'))).toBe(false);
    expect(validate(withServers('telemetry: { protocol: grpc }\n'))).toBe(false);
  });
});
