// The upstream of the catalog benchmark (bench/catalog.ts), an MCP server over stdio that
// lists `CATALOG_TOOLS` tools of bench/catalog-tools.ts in one page:
// `CATALOG_TOOLS=10000 node --import tsx bench/catalog-upstream.ts`. A call of any of them
// answers its name (and `{ id }` as structured content when it lists an output schema).
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { catalogTools } from './catalog-tools.js';

const tools = catalogTools(Number(process.env.CATALOG_TOOLS ?? '1000'));
const byName = new Map(tools.map((tool) => [tool.name, tool]));

serveStdio(() => {
  const server = new Server(
    { name: 'hintgate-bench-catalog', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) => {
    const tool = byName.get(request.params.name);
    return {
      content: [{ type: 'text', text: tool?.name ?? 'unknown tool' }],
      ...(tool?.outputSchema === undefined ? {} : { structuredContent: { id: tool.name } }),
    };
  });
  return server;
});
