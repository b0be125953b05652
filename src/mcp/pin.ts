/**
 * The parts of the MCP layer `hintgate pin` loads: listing a server's tools with the MCP
 * client, and the `_meta` keys pins leave out, without the SDK's server code.
 */
export { listMcpServerTools, remoteToolListings } from './client/index.js';
export { META_PREFIX, TOOL_META } from './tool-meta.js';
