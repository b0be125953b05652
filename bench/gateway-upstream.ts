// The cheap upstream of the gateway benchmark (bench/gateway.ts), an MCP server over stdio:
// `node --import tsx bench/gateway-upstream.ts`. One read-only tool, `ping`, that takes no
// arguments and returns a short string, so that what is measured is the path a call takes.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

serveStdio(() => {
  const server = new McpServer({ name: 'hintgate-bench-upstream', version: '1.0.0' });
  server.registerTool(
    'ping',
    {
      description: 'Returns "pong". Changes nothing.',
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    () => ({ content: [{ type: 'text', text: 'pong' }] }),
  );
  return server;
});
