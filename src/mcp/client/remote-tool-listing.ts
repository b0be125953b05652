import type { Tool as McpTool } from '@modelcontextprotocol/client';
import {
  isPlainObject,
  type JsonSchemaObject,
  TOOL_NAME_PATTERN,
  type ToolListing,
  toToolListing,
} from '../../tool/index.js';
import { RENDERED_FIELDS, remoteAnnotations, toRemoteTools } from './remote-tool.js';

const noCall = (): never => {
  throw new Error('a listing is not called');
};

/** An object schema, as the listed schema of a remote tool renders it (a JSON copy). */
const objectSchema = (value: unknown): JsonSchemaObject | undefined =>
  isPlainObject(value) && value.type === 'object' ? (value as JsonSchemaObject) : undefined;

/**
 * The listing of a tool a server lists as it is when nothing about it needs a concession:
 * a valid name, a description, an object input schema and no declared rate limit. For
 * anything else `undefined`: the tool is made as the gateway makes it, to be sure.
 */
function plainListing(listed: McpTool): ToolListing | undefined {
  const { name, title, description } = listed;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) return undefined;
  if (typeof description !== 'string' || description.trim() === '') return undefined;
  if (title !== undefined && typeof title !== 'string') return undefined;
  const inputSchema = objectSchema(listed.inputSchema);
  if (inputSchema === undefined) return undefined;
  const annotations = remoteAnnotations(listed.annotations);
  if (annotations.custom?.rateLimit !== undefined) return undefined;
  const outputSchema = objectSchema(listed.outputSchema);
  let extras: Record<string, unknown> | undefined;
  for (const key of Object.keys(listed)) {
    if (RENDERED_FIELDS.has(key)) continue;
    extras ??= {};
    extras[key] = (listed as Record<string, unknown>)[key];
  }
  return {
    name,
    ...(title === undefined ? {} : { title }),
    description,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
    ...(isPlainObject(listed._meta) ? { _meta: listed._meta } : {}),
    ...(extras === undefined ? {} : { extras }),
  };
}

/**
 * A server's `tools/list` as the gateway lists its tools (`toToolListing` of the tools
 * `connectMcpServer` registers), without making the tools: for `hintgate pin`, which needs
 * the definitions and not the tools. Tools the gateway would not register (a name that
 * breaks the MCP rules, a second tool of a name) are left out; a tool that needs a
 * concession (no description, a schema that is not an object's, a declared rate limit) is
 * made as the gateway makes it and listed as that tool lists. Schemas are the listed
 * objects themselves, not copies.
 */
export function remoteToolListings(listed: readonly McpTool[], origin: string): ToolListing[] {
  const out: ToolListing[] = [];
  const seen = new Set<string>();
  for (const definition of listed) {
    if (seen.has(definition.name)) continue;
    seen.add(definition.name);
    const plain = plainListing(definition);
    if (plain !== undefined) {
      out.push(plain);
      continue;
    }
    const [tool] = toRemoteTools([definition], origin, noCall, undefined, {
      schemas: 'lazy',
    }).tools;
    if (tool !== undefined) out.push(toToolListing(tool));
  }
  return out;
}
