/**
 * The parts of the gateway layer a process needs before it loads the rest of it: reading
 * a configuration, which loads none of the gateway's runtime or MCP server code.
 */
export {
  type LoadedGatewayConfig,
  type LoadedGatewayServer,
  loadGatewayConfig,
  SERVER_NAME_PATTERN,
} from './config/index.js';
