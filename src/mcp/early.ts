/**
 * The parts of the MCP layer a process needs before it loads the rest of it: what the
 * gateway CLI reads its configuration and starts its stdio servers with, while the MCP
 * SDK's server and protocol code (most of the layer's load time) is not loaded yet.
 */
export {
  spawnStdioServerEarly,
  stopEarlyStdioServers,
} from './client/early-stdio-spawn.js';
export { redactUrl } from './client/redact-url.js';
export { FAST_PATHS_ENV, fastPathEnabled } from './fast-paths.js';
export { DEFAULT_HTTP_HOST, isLoopbackHost } from './server/http-security.js';
