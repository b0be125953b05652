/** MCP servers over stdio for the sections: `bench/upstream.ts ping | catalog | relay <cmd...>`. */
import { fileURLToPath } from 'node:url';

const words = (text: string) => text.split(' ');
const SERVICES = words(
  'billing crm issues wiki calendar mail storage deploy metrics alerts chat docs hr payroll inventory orders shipping support analytics auth search forms surveys tickets contracts',
);
const VERBS = words('list get create update delete archive search export');
const NOUNS = words(
  'customer invoice payment project task comment user team event message file folder release build dashboard report rule channel page record employee product shipment refund subscription webhook label milestone note template',
);
const FIELDS = words(
  'id name email status limit cursor since until owner tags amount currency priority title body region force dryRun format query sort parentId dueDate color',
);
const pick = (list: readonly string[], n: number): string => list[n % list.length] as string;

type Json = string | number | boolean | Json[] | { [key: string]: Json };

/** Property `field` of tool `n`: 2-6 a tool, of mixed types, patterns, enums, bounds, defaults. */
function property(field: string, n: number): { [key: string]: Json } {
  const description = `The ${field} of the item (variant ${n}).`;
  return [
    { type: 'string', description, pattern: `^[a-z0-9_-]{1,${8 + (n % 50)}}$` },
    { type: 'integer', description, minimum: 0, maximum: 100 + n },
    { type: 'boolean', description, default: n % 2 === 0 },
    { type: 'string', description, enum: ['low', 'medium', 'high', `level${n}`] },
    { type: 'array', description, items: { type: 'string', maxLength: 20 + n } },
    { type: 'string', description, format: n % 2 === 0 ? 'email' : 'date-time' },
  ][n % 6] as { [key: string]: Json };
}

/** Tool `n` of the catalog, as a `tools/list` answer lists it (a third with an output schema). */
function catalogTool(n: number) {
  const [service, verb] = [pick(SERVICES, n), pick(VERBS, Math.floor(n / SERVICES.length))];
  const noun = pick(NOUNS, Math.floor(n / (SERVICES.length * VERBS.length)) + n);
  const properties: { [key: string]: { [key: string]: Json } } = {};
  for (let p = 0; p < 2 + (n % 5); p += 1)
    properties[pick(FIELDS, n + p * 7)] = property(FIELDS[p] ?? 'x', n + p);
  const names = Object.keys(properties);
  const required = [names[0] as string];
  const output = {
    type: 'object' as const,
    properties: {
      id: { type: 'string' },
      [noun]: { type: 'object', properties: { n: { const: n } } },
    },
    required: ['id'],
  };
  return {
    name: `${service}_${verb}_${noun}_${n}`,
    title: `${verb} ${noun} (${service})`,
    description: `${verb.charAt(0).toUpperCase()}${verb.slice(1)} a ${noun} in ${service}. Returns the ${noun} with its fields; use the ${names.join(', ')} parameters to narrow it down.`,
    inputSchema: { type: 'object' as const, properties, required, additionalProperties: false },
    ...(n % 3 === 0 ? { outputSchema: output } : {}),
    annotations: {
      title: `${verb} ${noun}`,
      readOnlyHint: ['list', 'get', 'search', 'export'].includes(verb),
      destructiveHint: verb === 'delete',
      idempotentHint: verb !== 'create',
      openWorldHint: false,
    },
  };
}

/** The first `n` tools of the catalog. */
export const catalogTools = (n: number) => Array.from({ length: n }, (_, i) => catalogTool(i));

const [mode, command, ...args] = process.argv.slice(2);
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Each mode imports only what it runs, as a script of its own would.
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  if (mode === 'ping') {
    const { McpServer } = await import('@modelcontextprotocol/server');
    const hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
    const annotations = { ...hints, openWorldHint: false };
    const description = 'Returns "pong". Changes nothing.';
    serveStdio(() => {
      const server = new McpServer({ name: 'hintgate-bench-upstream', version: '1.0.0' });
      const pong = () => ({ content: [{ type: 'text' as const, text: 'pong' }] });
      server.registerTool('ping', { description, annotations }, pong);
      return server;
    });
  } else if (mode === 'catalog') {
    const { Server } = await import('@modelcontextprotocol/server');
    const tools = catalogTools(Number(process.env.CATALOG_TOOLS ?? '1000'));
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    serveStdio(() => {
      const info = { name: 'hintgate-bench-catalog', version: '1.0.0' };
      const server = new Server(info, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools }));
      server.setRequestHandler('tools/call', (request) => {
        const tool = byName.get(request.params.name);
        const text = tool?.name ?? 'unknown tool';
        const structured = tool?.outputSchema ? { structuredContent: { id: text } } : {};
        return { content: [{ type: 'text', text }], ...structured };
      });
      return server;
    });
  } else if (mode === 'relay' && command !== undefined) {
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const { Server } = await import('@modelcontextprotocol/server');
    const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
    const { proxyServer } = await import('mcp-proxy');
    const client = new Client({ name: 'mcp-proxy', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
    const capabilities = client.getServerCapabilities() ?? {};
    const info = client.getServerVersion() ?? { name: 'relay', version: '1.0.0' };
    const server = new Server(info, { capabilities });
    await proxyServer({ client, server, serverCapabilities: capabilities });
    server.onclose = () => void client.close().finally(() => process.exit(0));
    await server.connect(new StdioServerTransport());
  } else {
    console.error('usage: upstream.ts ping | catalog | relay <command> [args...]');
    process.exit(2);
  }
}
