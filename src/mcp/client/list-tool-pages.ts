import type { Client, Tool as McpTool, RequestOptions } from '@modelcontextprotocol/client';
import { ToolSchema } from '@modelcontextprotocol/core';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isPlainObject } from '../../tool/index.js';

/** Pages read at most, as the MCP client's own `listTools` reads them (its `listMaxPages`). */
export const MAX_TOOL_PAGES = 64;

/** One `tools/list` page as {@link TOOL_PAGE} hands it over. */
interface ToolPage {
  readonly tools: McpTool[];
  readonly nextCursor?: string;
}

/**
 * The outline of a `tools/list` page: a `tools` array and an optional string `nextCursor`.
 * Its tools are handed over as they arrived, not parsed into a copy: the transport layer
 * under the client (`RawToolListingsTransport`) has judged each of them by the client's
 * own `ToolSchema` as the page came in, leaving out or repairing what that schema refuses
 * (a tool with an own `__proto__` key, which the schema's copy would leave out, is taken
 * as the schema reads it: see `listToolPages`).
 */
const TOOL_PAGE: StandardSchemaV1<unknown, ToolPage> = {
  '~standard': {
    version: 1,
    vendor: 'hintgate',
    validate: (value) => {
      if (!isPlainObject(value) || !Array.isArray(value.tools)) {
        return { issues: [{ message: 'the tools/list result has no "tools" array' }] };
      }
      const { nextCursor } = value;
      if (nextCursor !== undefined && typeof nextCursor !== 'string') {
        return { issues: [{ message: 'nextCursor is not a string', path: ['nextCursor'] }] };
      }
      return { value: value as unknown as ToolPage };
    },
  },
};

/** Whether `value` holds an own `__proto__` key at any depth (JSON.parse makes them own keys). */
function hasProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (Object.hasOwn(value, '__proto__')) return true;
  for (const key in value) {
    if (hasProtoKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * A listed tool as the client would read it: the tool itself, or for the rare tool with an
 * own `__proto__` key somewhere (which the client's parse leaves out), the client's parse.
 */
const asClientReads = (tool: McpTool): McpTool =>
  hasProtoKey(tool) ? (ToolSchema.parse(tool) as McpTool) : tool;

const sameTools = (a: readonly McpTool[], b: readonly McpTool[]): boolean =>
  a.length === b.length && JSON.stringify(a) === JSON.stringify(b);

/**
 * Every page of the server's tool list, through the client's `request` with an outline
 * schema (see {@link TOOL_PAGE}) rather than `listTools`, whose parse would make a second
 * copy of every tool: for a connection that only lists (`hintgate pin`), which keeps no
 * copy in the client's response cache either. Pages are walked as `listTools` walks them:
 * at most {@link MAX_TOOL_PAGES}, and a page that repeats the cursor it was asked with and
 * the previous page's tools ends the list.
 *
 * @throws Error when the server pages past {@link MAX_TOOL_PAGES}, or whatever the request
 * rejects with (a timeout, an error answer, a result without a `tools` array).
 */
export async function listToolPages(client: Client, options: RequestOptions): Promise<McpTool[]> {
  const first = await client.request({ method: 'tools/list' }, TOOL_PAGE, options);
  const tools = first.tools.map(asClientReads);
  let previous = first.tools;
  let cursor = first.nextCursor;
  for (let pages = 1; cursor !== undefined; pages += 1) {
    if (pages >= MAX_TOOL_PAGES) {
      throw new Error(
        `tools/list did not end after ${MAX_TOOL_PAGES} pages: the server's pagination does not terminate`,
      );
    }
    const page = await client.request(
      { method: 'tools/list', params: { cursor } },
      TOOL_PAGE,
      options,
    );
    if (page.nextCursor === cursor && sameTools(page.tools, previous)) break;
    for (const tool of page.tools) tools.push(asClientReads(tool));
    previous = page.tools;
    cursor = page.nextCursor;
  }
  return tools;
}
