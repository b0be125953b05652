// A reference relay for the gateway benchmark (bench/gateway.ts): the `mcp-proxy` package's
// `proxyServer` with stdio on both sides, wired as its README shows, since its command only
// serves HTTP and SSE downstream. It relays every request and adds no policy, so it shows
// what one more stdio hop through an SDK-based proxy costs.
// `node --import tsx bench/gateway-relay.ts <command> [args...]` spawns the upstream.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { proxyServer } from 'mcp-proxy';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('usage: gateway-relay.ts <command> [args...]');
  process.exit(2);
}

const client = new Client({ name: 'mcp-proxy', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
const serverCapabilities = client.getServerCapabilities() ?? {};
const server = new Server(client.getServerVersion() ?? { name: 'relay', version: '1.0.0' }, {
  capabilities: serverCapabilities,
});
await proxyServer({ client, server, serverCapabilities });
server.onclose = () => {
  void client.close().finally(() => process.exit(0));
};
await server.connect(new StdioServerTransport());
