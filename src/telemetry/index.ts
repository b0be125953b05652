// Telemetry of tool calls. Only types and the starter here: the OpenTelemetry
// implementation is loaded by `startTelemetry` when telemetry is on.

export type { CallTelemetry, CallTelemetryStart, UpstreamTrace } from './call-telemetry.js';
export { OTEL_PACKAGES } from './start-otel-sdk.js';
export {
  type RunningTelemetry,
  type StartTelemetryOptions,
  startTelemetry,
  type TelemetrySettings,
  telemetryWanted,
} from './start-telemetry.js';
