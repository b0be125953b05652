import type { LoadedTelemetry } from './gateway-config.js';
import {
  asBoolean,
  asMapping,
  type ReadContext,
  readExpanded,
  report,
} from './read-config-value.js';

const SERVICE_NAME = /^[\w.@/:-]{1,255}$/;

/**
 * Reads `telemetry`: `true` / `false`, or `{ enabled, serviceName, endpoint }`. Only what
 * the file states is kept; the standard `OTEL_*` variables decide the rest when the
 * gateway starts. The schema has checked keys and types; this checks the service name and
 * the endpoint once their `${VAR}` references are replaced.
 */
export function readTelemetry(value: unknown, context: ReadContext): LoadedTelemetry | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return { enabled: value };
  const settings = asMapping(value);
  if (settings === undefined) return undefined;
  const enabled = asBoolean(settings.enabled);
  const serviceName = readExpanded(settings.serviceName, ['telemetry', 'serviceName'], context);
  if (serviceName !== undefined && !SERVICE_NAME.test(serviceName)) {
    report(
      context,
      ['telemetry', 'serviceName'],
      'is not a usable service name; use 1-255 letters, digits and . _ - / : @, such as "hintgate-gateway".',
    );
  }
  const endpoint = readExpanded(settings.endpoint, ['telemetry', 'endpoint'], context);
  let url: string | undefined;
  if (endpoint !== undefined) {
    const parsed = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
    if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      report(
        context,
        ['telemetry', 'endpoint'],
        'is not an http:// or https:// URL; use the base URL of an OTLP/HTTP receiver, such as "http://otel-collector:4318" (the paths /v1/traces and /v1/metrics are added).',
      );
    } else if (parsed.username !== '' || parsed.password !== '') {
      report(
        context,
        ['telemetry', 'endpoint'],
        'holds a user name or password; leave them out of the URL and set OTEL_EXPORTER_OTLP_HEADERS in the environment instead.',
      );
    } else {
      url = parsed.href.replace(/\/+$/, '');
    }
  }
  return {
    ...(enabled === undefined ? {} : { enabled }),
    ...(serviceName === undefined || !SERVICE_NAME.test(serviceName) ? {} : { serviceName }),
    ...(url === undefined ? {} : { endpoint: url }),
  };
}
