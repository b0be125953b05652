import {
  Client,
  InMemoryTransport,
  type LoggingMessageNotificationParams,
} from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHttpHandler } from '../mcp/server/create-mcp-http-handler.js';
import { connectOverFetch } from '../mcp/server/mcp-clients.test-helpers.js';
import { catalogServer } from './catalog-server.test-helpers.js';
import { createGateway } from './create-gateway.js';
import { resultText, tempDir, until, writeConfig } from './gateway.test-helpers.js';

// The 2026-07-28 protocol on either side of the gateway: a fixture server that speaks it
// upstream, and a client that speaks it downstream over the gateway's HTTP handler.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const RESOURCES = [
  { uri: 'fixture://a', name: 'a' },
  { uri: 'fixture://b', name: 'b' },
];

const start = async (era: 'legacy' | 'both') => {
  const temp = await tempDir();
  cleanups.push(temp.remove);
  const fixture = await catalogServer(
    temp.dir,
    'fixture',
    { resources: RESOURCES, prompts: [{ name: 'hello' }] },
    era,
  );
  const config = await writeConfig(temp.dir, {
    servers: { fixture: fixture.entry },
    mode: 'yolo',
    pin: { newTools: 'allow' },
  });
  const gateway = await createGateway({
    config,
    watchPins: false,
    onNotice: () => {},
    onError: () => {},
  });
  cleanups.push(() => gateway.close());
  return { gateway, fixture };
};

describe('gateway pass-through on the 2026-07-28 protocol', () => {
  it('subscribes on a 2026-07-28 server through a listen stream, and relays its updates and list changes', async () => {
    const { gateway, fixture } = await start('both');
    expect(gateway.connections.get('fixture')?.protocolEra).toBe('modern');

    const updated: string[] = [];
    const changed: string[] = [];
    const client = new Client({ name: 'legacy-downstream', version: '1.0.0' });
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
    });
    client.setNotificationHandler('notifications/prompts/list_changed', () => {
      changed.push('prompts');
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.toolServer.createServer().connect(serverSide);
    await client.connect(clientSide);
    cleanups.push(() => client.close());

    const read = await client.readResource({ uri: 'fixture://b' });
    expect(read.contents[0]).toMatchObject({ text: 'fixture fixture://b' });
    const prompt = await client.getPrompt({ name: 'hello', arguments: { who: 'x' } });
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: 'fixture hello {"who":"x"}',
    });

    await client.subscribeResource({ uri: 'fixture://a' });
    await client.callTool({ name: 'touch', arguments: { uri: 'fixture://b' } });
    await client.callTool({ name: 'touch', arguments: { uri: 'fixture://a' } });
    await until(() => updated.length > 0);
    // The server's stream carries only the URI subscribed to.
    expect(updated).toEqual(['fixture://a']);

    await fixture.set({ resources: RESOURCES, prompts: [{ name: 'hello' }, { name: 'added' }] });
    await client.callTool({ name: 'notify_changed' });
    await until(() => changed.length > 0);
    expect((await client.listPrompts()).prompts.map((entry) => entry.name)).toEqual([
      'hello',
      'added',
    ]);
  }, 60_000);

  it('serves a 2026-07-28 client: lists and reads, list changes on its listen stream, no log messages', async () => {
    const { gateway } = await start('legacy');
    const handler = createMcpHttpHandler({ toolServer: gateway.toolServer });
    cleanups.push(() => handler.close());
    const modern = await connectOverFetch(handler, 'modern');
    cleanups.push(() => modern.close());
    const { client } = modern;
    const changes: string[] = [];
    const messages: LoggingMessageNotificationParams[] = [];
    client.setNotificationHandler('notifications/prompts/list_changed', () => {
      changes.push('prompts');
    });
    client.setNotificationHandler('notifications/resources/list_changed', () => {
      changes.push('resources');
    });
    client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params);
    });
    const stream = await client.listen({ promptsListChanged: true, resourcesListChanged: true });
    cleanups.push(() => stream.close());
    expect(stream.honoredFilter).toEqual({ promptsListChanged: true, resourcesListChanged: true });

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['fixture://a', 'fixture://b']);
    const read = await client.readResource({ uri: 'fixture://a' });
    expect(read.contents[0]).toMatchObject({ text: 'fixture fixture://a' });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['hello']);

    await client.callTool({ name: 'log', arguments: { level: 'error', data: 'not for you' } });
    const notified = await client.callTool({ name: 'notify_changed' });
    expect(resultText(notified as { content: unknown[] })).toBe('notified');
    await until(() => changes.includes('prompts') && changes.includes('resources'));
    // The log message came before the list changes on the same upstream stream.
    expect(messages).toEqual([]);
  }, 60_000);
});
