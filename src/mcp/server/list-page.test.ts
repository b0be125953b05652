import type { Tool as McpTool } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../runtime/index.js';
import { connectTestClient } from '../../testing/index.js';
import { defineTool, READ_ONLY } from '../../tool/index.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import { LIST_PAGE_BYTES, listPage } from './list-page.js';

const listed = (count: number, descriptionLength = 10): McpTool[] =>
  Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}`,
    description: 'd'.repeat(descriptionLength),
    inputSchema: { type: 'object' },
  }));

describe('listPage', () => {
  it('answers a small listing in one page, without a cursor', () => {
    const tools = listed(3);
    expect(listPage(tools, undefined)).toEqual({ tools });
  });

  it('splits a listing over the page size; following the cursors gives every tool once, in order', () => {
    const tools = listed(50, 100);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = listPage(tools, cursor, 1000);
      expect(JSON.stringify(page.tools).length).toBeLessThanOrEqual(1000);
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBeGreaterThan(1);
    expect(names).toEqual(tools.map((tool) => tool.name));
  });

  it('gives a tool larger than a page a page of its own', () => {
    const tools = listed(3, 500);
    expect(listPage(tools, undefined, 100).tools).toHaveLength(1);
    expect(listPage(tools, '2', 100)).toEqual({ tools: [tools[2]] });
  });

  it.each([['-1'], ['01'], ['3'], ['x'], [''], [3], [null], [{}], ['9'.repeat(30)]])(
    'refuses the cursor %j with Invalid params and what to do',
    (cursor) => {
      expect(() => listPage(listed(3), cursor)).toThrow(/list the tools again without a cursor/);
      try {
        listPage(listed(3), cursor);
      } catch (error) {
        expect((error as { code?: number }).code).toBe(-32602);
      }
    },
  );
});

describe('tools/list of a catalog larger than an MCP stdio line may be', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('is answered in pages an MCP SDK client reads whole, every tool once', async () => {
    // 12 MiB of tools: over the 10 MiB the SDK's stdio readers accept in one line.
    const count = 3000;
    const size = Math.ceil((12 * 1024 * 1024) / count);
    const runtime = createRuntime({
      tools: Array.from({ length: count }, (_, index) =>
        defineTool({
          name: `tool_${index}`,
          description: `${index} ${'x'.repeat(size)}`,
          inputSchema: { type: 'object' },
          annotations: READ_ONLY,
          execute: () => 'ok',
        }),
      ),
      mode: 'yolo',
    });
    const toolServer = createMcpToolServer({ runtime });
    const { client, close } = await connectTestClient({ to: toolServer });
    cleanups.push(async () => {
      await close();
      await toolServer.close();
      await runtime.close();
    });
    // Without a cursor the SDK's client follows the cursors itself and joins the pages.
    expect((await client.listTools()).tools).toHaveLength(count);
    // Page by page (cursor "0" is the first page's), each under the page size.
    const names = new Set<string>();
    let cursor: string | undefined = '0';
    let pages = 0;
    do {
      const page = await client.listTools({ cursor });
      expect(JSON.stringify(page).length).toBeLessThan(LIST_PAGE_BYTES + 64 * 1024);
      for (const tool of page.tools) names.add(tool.name);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(names.size).toBe(count);
  });
});
