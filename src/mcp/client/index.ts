export { connectMcpServer } from './connect-mcp-server.js';
export type {
  McpConnectionEvents,
  McpConnectionStatus,
  McpServerConnection,
  McpStatusEvent,
  McpToolsEvent,
} from './connection-events.js';
export type {
  McpEraOption,
  McpServerCommonOptions,
  McpServerOptions,
} from './mcp-server-options.js';
export type { McpHttpTarget, McpStdioTarget } from './mcp-target.js';
export {
  DEFAULT_RECONNECT,
  type ReconnectOptions,
  reconnectDelay,
} from './reconnect-delay.js';
export { type McpToolProblem, remoteAnnotations } from './remote-tool.js';
export { isConnectionFailure, UpstreamUnavailableError } from './upstream-unavailable-error.js';
