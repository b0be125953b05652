export { META_PREFIX, TOOL_META } from '../tool-meta.js';
export {
  HEALTHZ_PATH,
  READINESS_TIMEOUT_MS,
  READYZ_PATH,
  type ReadinessCheck,
} from './answer-health.js';
export type { ApprovalChannel } from './approval-channel.js';
export {
  APPROVAL_CHOICES,
  type ApprovalChoice,
  answerFromElicitation,
  approvalForm,
  approvalMessage,
  type ElicitationAnswer,
} from './approval-form.js';
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
  type McpHttpRequestOptions,
} from './create-mcp-http-handler.js';
export {
  type CreateServerOptions,
  createMcpToolServer,
  type McpToolServer,
  type McpToolServerOptions,
  type TransportToolCall,
} from './create-mcp-tool-server.js';
export type { HttpPrincipal } from './http-principals.js';
export type { HttpRateLimit } from './http-rate-limit.js';
export { allowedHostnames, LOCALHOST_NAMES } from './http-security.js';
export { APPROVAL_INPUT_KEY } from './input-required-channel.js';
export {
  LOGGING_LEVELS,
  type McpLogSource,
  type McpPromptSource,
  type McpResourceEvent,
  type McpResourceSource,
  type McpServerEvent,
  type McpSourceRequest,
} from './mcp-server-sources.js';
export { type McpStdioOptions, type McpStdioServer, serveMcpStdio } from './serve-mcp-stdio.js';
export {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  MCP_PATH,
  type McpHttpServer,
  type McpHttpServerOptions,
  startMcpHttpServer,
} from './start-mcp-http-server.js';
export { RESULT_META, toCallToolResult } from './to-call-tool-result.js';
export { toMcpTool } from './to-mcp-tool.js';
