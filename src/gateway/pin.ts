/**
 * The part of the gateway layer `hintgate pin` loads: pinning the configured servers'
 * tools, without the gateway's runtime and MCP server.
 */
export {
  type PinGatewayOptions,
  type PinGatewayResult,
  type PinPlan,
  pinGateway,
} from './pin-gateway.js';
