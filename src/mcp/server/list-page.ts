import { ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';

/**
 * Most JSON text one `tools/list` page carries. The MCP SDK's stdio readers refuse a line
 * over 10 MiB (`STDIO_DEFAULT_MAX_BUFFER_SIZE`) and close the connection, so a catalog of
 * many thousands of tools is answered in pages well under that; a smaller listing is one
 * page, as before.
 */
export const LIST_PAGE_BYTES = 4 * 1024 * 1024;

/** One page of a `tools/list` answer, and the cursor of the next page if there is one. */
export type ToolListPage = { tools: Tool[]; nextCursor?: string };

/**
 * The page of `tools` that `cursor` (from an earlier page's `nextCursor`) asks for. A cursor
 * is the index of the page's first tool, as decimal text; one that is not such an index
 * within the listing (made up, or from a listing that has since shrunk) is refused with
 * Invalid params, saying to list again from the start.
 */
export function listPage(
  tools: readonly Tool[],
  cursor: unknown,
  maxBytes: number = LIST_PAGE_BYTES,
): ToolListPage {
  const start = cursor === undefined ? 0 : startOf(cursor, tools.length);
  let bytes = 0;
  let end = start;
  while (end < tools.length) {
    // The length of a tool's JSON as UTF-16 units: close enough to its bytes for a bound
    // that sits far below the readers' limit.
    const size = JSON.stringify(tools[end]).length + 1;
    if (end > start && bytes + size > maxBytes) break;
    bytes += size;
    end += 1;
  }
  const page = start === 0 && end === tools.length ? (tools as Tool[]) : tools.slice(start, end);
  return end < tools.length ? { tools: page, nextCursor: String(end) } : { tools: page };
}

const startOf = (cursor: unknown, length: number): number => {
  const index =
    typeof cursor === 'string' && /^(0|[1-9]\d{0,9})$/.test(cursor) ? Number(cursor) : -1;
  if (index < 0 || index >= length) {
    const shown = JSON.stringify(cursor)?.slice(0, 40) ?? String(cursor);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `tools/list: the cursor ${shown} is not one this server gave, or the tool list has changed since; list the tools again without a cursor.`,
    );
  }
  return index;
};
