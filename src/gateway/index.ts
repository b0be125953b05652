// The gateway (`hintgate/gateway`): front MCP servers with one runtime, pin their tools.
// Node only.

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
