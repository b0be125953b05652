import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { RegisteredTool } from '../../registry/index.js';
import type { ToolListing } from '../../tool/index.js';
import { TOOL_META } from '../tool-meta.js';

/**
 * Renders a tool as an MCP `tools/list` entry: name, title, description, input and output
 * JSON Schema and annotations exactly as the tool declares them (hints it leaves out stay
 * out; nothing is filled with defaults), the tool's own `_meta` with hintgate's view
 * added under `dev.hintgate/`, and the listing fields hintgate does not interpret
 * (`execution`, `icons`, ...) as they are.
 */
export function toMcpTool(listing: ToolListing, registered: RegisteredTool | undefined): McpTool {
  const meta: Record<string, unknown> = { ...listing._meta };
  if (registered !== undefined) {
    meta[TOOL_META.origin] = registered.origin;
    meta[TOOL_META.class] = registered.class;
    meta[TOOL_META.trusted] = registered.trusted;
    meta[TOOL_META.effective] = { ...registered.effective };
    meta[TOOL_META.gated] = registered.tool.gated;
  }
  // The schemas are JSON Schema objects whose root is `type: "object"` (defineTool checks
  // it); the SDK's type spells that out, ours keeps them open.
  return {
    ...listing.extras,
    name: listing.name,
    ...(listing.title === undefined ? {} : { title: listing.title }),
    description: listing.description,
    inputSchema: { ...listing.inputSchema } as McpTool['inputSchema'],
    ...(listing.outputSchema === undefined
      ? {}
      : { outputSchema: { ...listing.outputSchema } as NonNullable<McpTool['outputSchema']> }),
    ...(listing.annotations === undefined ? {} : { annotations: { ...listing.annotations } }),
    _meta: meta,
  };
}
