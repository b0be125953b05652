export { connectMcpServer } from './connect-mcp-server.js';
export type {
  McpConnectionEvents,
  McpConnectionStatus,
  McpServerConnection,
  McpServerNotification,
  McpStatusEvent,
  McpToolsEvent,
} from './connection-events.js';
export { type ListedMcpServerTools, listMcpServerTools } from './list-mcp-server-tools.js';
export type {
  ConnectMcpServerCommonOptions,
  ConnectMcpServerOptions,
  McpEraOption,
} from './mcp-server-options.js';
export type { McpHttpTarget, McpStdioTarget } from './mcp-target.js';
export { DEFAULT_RECONNECT, type ReconnectOptions } from './reconnect-delay.js';
export type { McpToolProblem } from './remote-tool.js';
export { remoteToolListings } from './remote-tool-listing.js';
export {
  UPSTREAM_REQUEST_METHODS,
  type UpstreamRequestMethod,
  type UpstreamRequests,
} from './upstream-requests.js';
export { UpstreamUnavailableError } from './upstream-unavailable-error.js';
