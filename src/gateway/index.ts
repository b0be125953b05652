// What other layers of hintgate may use of the gateway layer. The public
// `hintgate/gateway` is src/gateway.ts.
export {
  type CallTelemetry,
  type RunningTelemetry,
  type StartTelemetryOptions,
  startTelemetry,
  type TelemetrySettings,
  telemetryWanted,
} from '../telemetry/index.js';
export {
  type AuditSyncPolicy,
  addServersToConfigText,
  DEFAULT_SCHEMA_URL,
  type GatewayAuditRotate,
  type GatewayConfig,
  type LoadedGatewayConfig,
  type LoadedGatewayServer,
  type LoadedTelemetry,
  type LoadGatewayConfigOptions,
  loadGatewayConfig,
  type NewToolsPolicy,
  parseGatewayConfigText,
  renderStarterConfig,
  SERVER_NAME_PATTERN,
  type ServerEntry,
} from './config/index.js';
export { type CreateGatewayOptions, createGateway, type Gateway } from './create-gateway.js';
export {
  type ExposedNames,
  exposedNames,
  TOOL_NAME_SEPARATOR,
  type UpstreamToolRef,
} from './exposed-names.js';
export type { GatewayToolState, ToolPinDetail } from './gateway-tool-states.js';
export {
  type PinGatewayOptions,
  type PinGatewayResult,
  type PinPlan,
  pinGateway,
} from './pin-gateway.js';
export {
  type PlanGatewayToolsOptions,
  planGatewayTools,
  type ToolOutcome,
  type ToolPlan,
} from './plan-gateway-tools.js';
