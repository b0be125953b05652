export {
  type AddServersOptions,
  type AddServersResult,
  addServersToConfigText,
} from './add-servers-to-config.js';
export { checkGatewayConfig, type GatewayConfigSource } from './check-gateway-config.js';
export { type EnvironmentVariables, type ExpandEnvResult, expandEnv } from './expand-env.js';
export {
  AUDIT_SYNC_POLICIES,
  type AuditSyncPolicy,
  DEFAULT_STATE_PATHS,
  type GatewayAuditRotate,
  type GatewayConfig,
  type GatewayHttpServerConfig,
  type GatewayServerConfig,
  type GatewayServerExtras,
  type GatewayStateSettings,
  type GatewayStdioServerConfig,
  type GatewayToolOverride,
  type LoadedConsole,
  type LoadedDownstreamHttp,
  type LoadedGatewayConfig,
  type LoadedGatewayServer,
  type LoadedHttpServer,
  type LoadedPrincipal,
  type LoadedServerCommon,
  type LoadedSessionLimits,
  type LoadedStateConfig,
  type LoadedStdioServer,
  type LoadedTelemetry,
  type LoadedToolOverride,
  NEW_TOOLS_POLICIES,
  type NewToolsPolicy,
  SERVER_NAME_PATTERN,
  VERIFIED_CONCURRENCY,
} from './gateway-config.js';
export {
  type LoadGatewayConfigOptions,
  loadGatewayConfig,
  type ParseGatewayConfigOptions,
  parseGatewayConfigText,
} from './load-gateway-config.js';
export {
  DEFAULT_STATE_KEY_ENV,
  DEFAULT_STATE_KEY_PREFIX,
  readStateConfig,
} from './read-state-config.js';
export { renderServerEntries, type ServerEntry } from './render-server-entries.js';
export {
  DEFAULT_SCHEMA_URL,
  type RenderStarterConfigOptions,
  renderStarterConfig,
} from './render-starter-config.js';
