import {
  Client,
  InMemoryTransport,
  type LoggingMessageNotificationParams,
  type ProgressNotificationParams,
  ProtocolError,
  ResourceNotFoundError,
} from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReconnectOptions } from '../mcp/client/index.js';
import { catalogServer } from './catalog-server.test-helpers.js';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  everythingServer,
  resultText,
  tempDir,
  until,
  writeConfig,
} from './gateway.test-helpers.js';

// Real upstream processes (server-everything from node_modules, the catalog-file fixture
// from the test run's build) behind a gateway, and SDK clients connected to it in memory.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What a downstream client heard. */
interface Heard {
  readonly updated: string[];
  readonly messages: LoggingMessageNotificationParams[];
  readonly changed: string[];
}

/** A 2025-11-25 SDK client of the gateway, recording its notifications. */
const connect = async (gateway: Gateway): Promise<{ client: Client; heard: Heard }> => {
  const heard: Heard = { updated: [], messages: [], changed: [] };
  const client = new Client({ name: 'passthrough-test', version: '1.0.0' });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.updated.push(notification.params.uri);
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    heard.messages.push(notification.params);
  });
  for (const method of [
    'notifications/resources/list_changed',
    'notifications/prompts/list_changed',
  ] as const) {
    client.setNotificationHandler(method, () => {
      heard.changed.push(method);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.toolServer.createServer().connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return { client, heard };
};

const start = async (servers: Record<string, unknown>, reconnect?: ReconnectOptions) => {
  const temp = await tempDir();
  cleanups.push(temp.remove);
  const config = await writeConfig(temp.dir, {
    servers,
    mode: 'yolo',
    pin: { newTools: 'allow' },
  });
  const errors: Error[] = [];
  const gateway = await createGateway({
    config,
    watchPins: false,
    onNotice: () => {},
    onError: (error) => errors.push(error),
    ...(reconnect === undefined ? {} : { reconnect }),
  });
  cleanups.push(() => gateway.close());
  return { gateway, errors, dir: temp.dir };
};

/** The JSON-RPC error a request failed with. */
const rejection = async (promise: Promise<unknown>): Promise<ProtocolError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ProtocolError)) throw new Error(`expected a ProtocolError, got ${error}`);
  return error;
};

type Result = { content: unknown[] };

const STATIC_DOC = 'demo://resource/static/document/architecture.md';

describe('gateway passes resources, prompts, logging and progress through', () => {
  it('lists the resources of every server (following pages), routes reads by URI, and says when no server has a URI', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const fixture = await catalogServer(temp.dir, 'fixture', {
      pageSize: 2,
      resources: [
        ...['a', 'b', 'c', 'd', 'e'].map((id) => ({ uri: `fixture://${id}`, name: id })),
        // Also listed by server-everything, which comes first in the configuration.
        { uri: STATIC_DOC, name: 'shadowed' },
      ],
    });
    const { gateway } = await start({ everything: everythingServer(), fixture: fixture.entry });
    const { client } = await connect(gateway);

    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
    });
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris.filter((uri) => uri.startsWith('fixture://'))).toEqual([
      'fixture://a',
      'fixture://b',
      'fixture://c',
      'fixture://d',
      'fixture://e',
    ]);
    expect(uris.filter((uri) => uri === STATIC_DOC)).toHaveLength(1);
    // server-everything's come first: configuration order.
    expect(uris.indexOf(STATIC_DOC)).toBeLessThan(uris.indexOf('fixture://a'));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain(
      'demo://resource/dynamic/text/{resourceId}',
    );

    const fixtureRead = await client.readResource({ uri: 'fixture://e' });
    expect(fixtureRead.contents[0]).toMatchObject({
      uri: 'fixture://e',
      text: 'fixture fixture://e',
    });
    // A URI both list goes to the first server in the configuration.
    const shadowed = await client.readResource({ uri: STATIC_DOC });
    expect(shadowed.contents[0]?.uri).toBe(STATIC_DOC);
    expect(JSON.stringify(shadowed.contents[0])).not.toContain('fixture ');
    // A URI nobody lists, but a template of server-everything matches.
    const dynamic = await client.readResource({ uri: 'demo://resource/dynamic/text/3' });
    expect(JSON.stringify(dynamic.contents)).toContain('3');

    const unknown = await rejection(client.readResource({ uri: 'nowhere://x' }));
    // Resource not found: -32002, which the 2025 wire spells -32602.
    expect(unknown).toBeInstanceOf(ResourceNotFoundError);
    expect(unknown.message).toContain('"nowhere://x" not found');
    expect(unknown.message).toContain('everything, fixture');
    const unwatched = await rejection(client.subscribeResource({ uri: 'nowhere://x' }));
    expect(unwatched).toBeInstanceOf(ResourceNotFoundError);
    const cursor = await rejection(client.listResources({ cursor: 'forged' }));
    expect(cursor.code).toBe(-32602);
    expect(cursor.message).toContain('Unknown cursor');
  }, 60_000);

  it('subscribes once upstream for two clients, relays updates to the subscribed client only, and unsubscribes when the last one leaves', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const fixture = await catalogServer(temp.dir, 'fixture', {
      resources: [
        { uri: 'fixture://a', name: 'a' },
        { uri: 'fixture://b', name: 'b' },
      ],
    });
    const { gateway } = await start({ fixture: fixture.entry });
    const a = await connect(gateway);
    const b = await connect(gateway);
    const state = async () =>
      JSON.parse(resultText((await a.client.callTool({ name: 'state' })) as Result)) as {
        level: string | null;
        subscribed: string[];
      };

    await a.client.subscribeResource({ uri: 'fixture://a' });
    await b.client.subscribeResource({ uri: 'fixture://a' });
    await b.client.subscribeResource({ uri: 'fixture://b' });
    expect((await state()).subscribed).toEqual(['fixture://a', 'fixture://b']);

    await a.client.callTool({ name: 'touch', arguments: { uri: 'fixture://b' } });
    await a.client.callTool({ name: 'touch', arguments: { uri: 'fixture://a' } });
    await until(() => a.heard.updated.length > 0 && b.heard.updated.length > 1);
    // a hears of a only: b's update came first on the same stream, and did not reach it.
    expect(a.heard.updated).toEqual(['fixture://a']);
    expect(b.heard.updated).toEqual(['fixture://b', 'fixture://a']);

    await a.client.unsubscribeResource({ uri: 'fixture://a' });
    expect((await state()).subscribed).toEqual(['fixture://a', 'fixture://b']);
    await b.client.close();
    await until(async () => (await state()).subscribed.length === 0);
  }, 60_000);

  it('relays server-everything resource updates and its log messages, tagged with the server name', async () => {
    const { gateway } = await start({ everything: everythingServer({ trusted: true }) });
    const { client, heard } = await connect(gateway);
    await client.setLoggingLevel('info');
    await client.subscribeResource({ uri: STATIC_DOC });
    await client.callTool({ name: 'toggle-subscriber-updates' });
    await until(() => heard.updated.includes(STATIC_DOC));
    await until(() =>
      heard.messages.some((message) => String(message.data).includes('Received Subscribe')),
    );
    const logged = heard.messages.find((message) =>
      String(message.data).includes('Received Subscribe'),
    );
    expect(logged).toMatchObject({ level: 'info', logger: 'everything' });
    await client.callTool({ name: 'toggle-subscriber-updates' });
    await client.unsubscribeResource({ uri: STATIC_DOC });
  }, 60_000);

  it('passes logging/setLevel on as the least severe level asked, and filters each client at its own level', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const fixture = await catalogServer(temp.dir, 'fixture', {});
    const { gateway } = await start({ fixture: fixture.entry });
    const chatty = await connect(gateway);
    const quiet = await connect(gateway);
    await quiet.client.setLoggingLevel('error');
    await chatty.client.setLoggingLevel('info');
    const state = JSON.parse(
      resultText((await chatty.client.callTool({ name: 'state' })) as Result),
    ) as { level: string };
    expect(state.level).toBe('info');

    await chatty.client.callTool({ name: 'log', arguments: { level: 'info', data: 'one' } });
    await chatty.client.callTool({ name: 'log', arguments: { level: 'error', data: 'two' } });
    await until(() => chatty.heard.messages.length === 2 && quiet.heard.messages.length === 1);
    expect(chatty.heard.messages).toEqual([
      { level: 'info', data: 'one', logger: 'fixture' },
      { level: 'error', data: 'two', logger: 'fixture' },
    ]);
    expect(quiet.heard.messages).toEqual([{ level: 'error', data: 'two', logger: 'fixture' }]);
  }, 60_000);

  it('subscribes again and sets the level again on a server that was restarted, and tells clients its lists may have changed', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const fixture = await catalogServer(temp.dir, 'fixture', {
      resources: [{ uri: 'fixture://a', name: 'a' }],
    });
    const { gateway } = await start(
      { fixture: fixture.entry },
      { initialDelayMs: 50, maxDelayMs: 200 },
    );
    const { client, heard } = await connect(gateway);
    const state = async () =>
      JSON.parse(resultText((await client.callTool({ name: 'state' })) as Result)) as {
        level: string | null;
        subscribed: string[];
      };
    await client.subscribeResource({ uri: 'fixture://a' });
    await client.setLoggingLevel('warning');
    const connection = gateway.connections.get('fixture');
    let restarted = false;
    connection?.on('status', (event) => {
      if (event.status === 'ready' && event.previous === 'reconnecting') restarted = true;
    });
    await client.callTool({ name: 'crash' });
    await until(() => restarted);
    await until(async () => {
      const now = await state();
      return now.level === 'warning' && now.subscribed.includes('fixture://a');
    });
    expect(heard.changed).toEqual(
      expect.arrayContaining([
        'notifications/resources/list_changed',
        'notifications/prompts/list_changed',
      ]),
    );
    await client.callTool({ name: 'touch', arguments: { uri: 'fixture://a' } });
    await until(() => heard.updated.includes('fixture://a'));
  }, 60_000);

  it('lists prompts of two servers, prefixing the shared name, and gets each from its server', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const fixture = await catalogServer(temp.dir, 'fixture', {
      pageSize: 1,
      prompts: [
        { name: 'simple-prompt', description: 'Also on server-everything.' },
        { name: 'fixture only', description: 'A name with a space.' },
      ],
    });
    const { gateway } = await start({ everything: everythingServer(), fixture: fixture.entry });
    const { client, heard } = await connect(gateway);

    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'everything__simple-prompt',
        'fixture__simple-prompt',
        'args-prompt',
        'fixture only',
      ]),
    );
    expect(names).not.toContain('simple-prompt');

    const fromFixture = await client.getPrompt({ name: 'fixture__simple-prompt' });
    expect(fromFixture.messages[0]?.content).toEqual({
      type: 'text',
      text: 'fixture simple-prompt {}',
    });
    const fromEverything = await client.getPrompt({ name: 'everything__simple-prompt' });
    expect(JSON.stringify(fromEverything.messages)).not.toContain('fixture');
    const withArgs = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon' } });
    expect(JSON.stringify(withArgs.messages)).toContain('Lyon');

    const unknown = await rejection(client.getPrompt({ name: 'simple-prompt' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain('Unknown prompt "simple-prompt"');
    expect(unknown.message).toContain('everything__simple-prompt');
    // server-everything's own answer to a missing required argument passes through.
    const missing = await rejection(client.getPrompt({ name: 'args-prompt' }));
    expect(missing.code).toBe(-32602);

    // The fixture changes its lists: clients hear of both, and the new prompt is there.
    await fixture.set({
      prompts: [{ name: 'simple-prompt' }, { name: 'fixture only' }, { name: 'added' }],
    });
    await client.callTool({ name: 'notify_changed' });
    await until(
      () =>
        heard.changed.includes('notifications/prompts/list_changed') &&
        heard.changed.includes('notifications/resources/list_changed'),
    );
    const again = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(again).toContain('added');
  }, 60_000);

  it('relays the progress of a long-running server-everything tool to the client that asked, with its token', async () => {
    const { gateway } = await start({ everything: everythingServer({ trusted: true }) });
    const { client } = await connect(gateway);
    // Heard directly rather than through the SDK's `onprogress`, which forgets the token as
    // soon as the result arrives and can drop the last notification just before it.
    const seen: ProgressNotificationParams[] = [];
    client.setNotificationHandler('notifications/progress', (notification) => {
      seen.push(notification.params);
    });
    const result = await client.callTool({
      name: 'trigger-long-running-operation',
      arguments: { duration: 0.3, steps: 3 },
      _meta: { progressToken: 'downstream-7' },
    });
    expect(resultText(result as Result)).toContain('Long running operation completed');
    expect(seen).toEqual([
      { progressToken: 'downstream-7', progress: 1, total: 3 },
      { progressToken: 'downstream-7', progress: 2, total: 3 },
      { progressToken: 'downstream-7', progress: 3, total: 3 },
    ]);
    // Without a token, nothing is asked upstream and the call still works.
    const quiet = await client.callTool({
      name: 'trigger-long-running-operation',
      arguments: { duration: 0.1, steps: 1 },
    });
    expect(resultText(quiet as Result)).toContain('completed');
  }, 60_000);

  it('answers ping both ways: a client pings the gateway, the gateway pings a server', async () => {
    const { gateway } = await start({ everything: everythingServer() });
    const { client } = await connect(gateway);
    await expect(client.ping()).resolves.toBeDefined();
    const upstream = gateway.connections.get('everything');
    await expect(upstream?.request('ping', (c) => c.ping())).resolves.toBeDefined();
  }, 60_000);

  it('declares no resources, prompts or logging for the embedded default gateway', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const gateway = await createGateway({ workspace: temp.dir, onNotice: () => {} });
    cleanups.push(() => gateway.close());
    const { client } = await connect(gateway);
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.resources).toBeUndefined();
    expect(capabilities?.prompts).toBeUndefined();
    expect(capabilities?.logging).toBeUndefined();
  }, 60_000);
});
