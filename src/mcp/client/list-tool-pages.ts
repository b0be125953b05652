import type { Client, Tool as McpTool, RequestOptions } from '@modelcontextprotocol/client';
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
 * own `ToolSchema` as the page came in, leaving out or repairing what that schema refuses.
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
  const tools = [...first.tools];
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
    for (const tool of page.tools) tools.push(tool);
    previous = page.tools;
    cursor = page.nextCursor;
  }
  return tools;
}
