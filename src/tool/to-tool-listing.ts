import type { Tool, ToolListing } from './tool.js';

/**
 * Renders a tool as an MCP `tools/list` entry (also the shape model tool lists take):
 * JSON Schemas, and annotations exactly as claimed, absent hints left out. Takes a tool of
 * any argument type, as `defineTool` returns it.
 */
export function toToolListing<Args>(tool: Tool<Args>): ToolListing {
  const hasAnnotations = Object.keys(tool.annotations).length > 0;
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: tool.inputSchema.jsonSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema.jsonSchema }),
    ...(hasAnnotations ? { annotations: tool.annotations } : {}),
    ...(tool.meta === undefined ? {} : { _meta: tool.meta }),
    ...(tool.listingExtras === undefined ? {} : { extras: tool.listingExtras }),
  };
}
