// The gateway API of hintgate (`hintgate/gateway`): front MCP servers with one runtime, pin
// their tools. Node only. The rest of the code reaches the gateway layer through
// src/gateway/index.ts, which also holds what only hintgate itself uses.

export {
  type AuditSyncPolicy,
  type CreateGatewayOptions,
  createGateway,
  type Gateway,
  type GatewayAuditRotate,
  type GatewayConfig,
  type GatewayToolState,
  type LoadedGatewayConfig,
  type LoadedGatewayServer,
  type LoadGatewayConfigOptions,
  loadGatewayConfig,
  type NewToolsPolicy,
  type PinGatewayOptions,
  type PinGatewayResult,
  type PinPlan,
  parseGatewayConfigText,
  pinGateway,
  renderStarterConfig,
  type ToolPinDetail,
} from './gateway/index.js';
