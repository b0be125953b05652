/**
 * The parts of the MCP layer `hintgate serve` loads: the tool server and its stdio and
 * Streamable HTTP entries, without the MCP client (the SDK's client package, which a server
 * of local tools never uses).
 */
export {
  createMcpToolServer,
  DEFAULT_HTTP_HOST,
  type McpHttpServer,
  type McpStdioServer,
  serveMcpStdio,
  startMcpHttpServer,
} from './server/index.js';
