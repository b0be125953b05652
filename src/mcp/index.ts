// What other layers of hintgate may use of the MCP layer. The public `hintgate/mcp` is
// src/mcp.ts.
export {
  type ConnectMcpServerCommonOptions,
  type ConnectMcpServerOptions,
  connectMcpServer,
  DEFAULT_RECONNECT,
  type McpConnectionEvents,
  type McpConnectionStatus,
  type McpEraOption,
  type McpHttpTarget,
  type McpServerConnection,
  type McpServerNotification,
  type McpStatusEvent,
  type McpStdioTarget,
  type McpToolProblem,
  type McpToolsEvent,
  type ReconnectOptions,
  type UpstreamRequests,
  UpstreamUnavailableError,
} from './client/index.js';
export { checkTarget } from './client/mcp-target.js';
export { redactUrl } from './client/redact-url.js';
export { listedSchema } from './client/remote-schema.js';
export { toRemoteTools } from './client/remote-tool.js';
export { MODERN_REVISION } from './protocol-revision.js';
export {
  checkRequestHosts,
  isLoopbackHost,
  normalizeAllowedHosts,
} from './server/http-security.js';
export {
  APPROVAL_CHOICES,
  APPROVAL_INPUT_KEY,
  type ApprovalChannel,
  type ApprovalChoice,
  allowedHostnames,
  type CreateServerOptions,
  createMcpHttpHandler,
  createMcpToolServer,
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  type HttpPrincipal,
  type HttpRateLimit,
  LOCALHOST_NAMES,
  LOGGING_LEVELS,
  MCP_PATH,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
  type McpHttpRequestOptions,
  type McpHttpServer,
  type McpHttpServerOptions,
  type McpLogSource,
  type McpPromptSource,
  type McpResourceEvent,
  type McpResourceSource,
  type McpServerEvent,
  type McpSourceRequest,
  type McpStdioOptions,
  type McpStdioServer,
  type McpToolServer,
  type McpToolServerOptions,
  META_PREFIX,
  RESULT_META,
  serveMcpStdio,
  startMcpHttpServer,
  TOOL_META,
  type TransportToolCall,
} from './server/index.js';
