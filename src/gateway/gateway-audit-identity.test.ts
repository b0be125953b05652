import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { connectClient, connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { startMcpHttpServer } from '../mcp/server/start-mcp-http-server.js';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  auditEvents,
  type FixtureTool,
  tempDir,
  toolsFileServer,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// Audit records of gateway calls carry who made them (client name and version, transport,
// the token's principal over HTTP), and approval records who answered and how.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TOOLS: FixtureTool[] = [
  { name: 'lookup', description: 'Reads.', annotations: { readOnlyHint: true } },
  { name: 'save', description: 'Saves.', annotations: { readOnlyHint: false } },
];

const start = async (): Promise<{ gateway: Gateway; audit: string }> => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const fixture = await toolsFileServer(dir, 'records', TOOLS);
  const config = await writeConfig(dir, {
    servers: { records: { ...fixture.entry, trusted: true } },
  });
  await pinGateway({ config });
  const gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
  });
  cleanups.push(() => gateway.close());
  return { gateway, audit: config.audit.path };
};

const CLIENT = { name: 'hintgate-test-client', version: '1.0.0' };

describe('audit identity', () => {
  it('records the client and transport of every call event, and who approved through which channel', async () => {
    const { gateway, audit } = await start();
    const client = await connectInMemory(gateway.toolServer, {
      answer: () => ({ action: 'accept', content: { decision: 'allow_once' } }),
    });
    cleanups.push(() => client.close());
    await client.client.callTool({ name: 'lookup', arguments: {} });
    await client.client.callTool({ name: 'save', arguments: {} });
    expect(client.forms).toHaveLength(1);

    const events = (await auditEvents(audit)).filter((event) => event.type !== 'tool.changed');
    expect(events.map((event) => event.type)).toEqual([
      'call.started',
      'call.succeeded',
      'approval.requested',
      'approval.granted',
      'call.started',
      'call.succeeded',
    ]);
    for (const event of events) {
      expect(event.caller, String(event.type)).toEqual({ client: CLIENT, transport: 'in-process' });
    }
    expect(events[3]?.answeredBy).toEqual({
      channel: 'elicitation',
      who: 'hintgate-test-client 1.0.0',
    });
  });

  it('over HTTP with a token, records the transport and the principal; a client that cannot ask has its approval answered by nobody', async () => {
    const { gateway, audit } = await start();
    const token = 'a-long-test-token';
    const http = await startMcpHttpServer({ toolServer: gateway.toolServer, port: 0, token });
    cleanups.push(() => http.close());
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = await connectClient(transport, 'legacy');
    cleanups.push(() => client.close());
    await client.client.callTool({ name: 'lookup', arguments: {} });
    const denied = (await client.client.callTool({ name: 'save', arguments: {} })) as {
      isError?: boolean;
    };
    expect(denied.isError).toBe(true);

    const events = (await auditEvents(audit)).filter((event) => event.type !== 'tool.changed');
    expect(events.length).toBeGreaterThanOrEqual(4);
    for (const event of events) {
      expect(event.caller, String(event.type)).toEqual({
        client: CLIENT,
        transport: 'http',
        principal: 'bearer',
      });
    }
    const answered = events.find((event) => event.type === 'approval.denied');
    expect(answered?.answeredBy).toEqual({ channel: 'none' });
  });
});
