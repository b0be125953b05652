import { Client, InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import type { LoggingLevel, LoggingMessageNotificationParams } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../runtime/create-runtime.js';
import { createMcpToolServer, type McpToolServer } from './create-mcp-tool-server.js';
import { eventually } from './mcp-clients.test-helpers.js';
import type { McpLogSource, McpResourceEvent, McpResourceSource } from './mcp-server-sources.js';

// createMcpToolServer with small in-process sources (real implementations of the source
// interfaces) and SDK clients over the in-memory transport.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Resources `memo://<n>`; records what it was asked to watch. */
const memoResources = () => {
  const listeners = new Set<(event: McpResourceEvent) => void>();
  const calls: string[] = [];
  /** Held subscriptions of `memo://slow`, released by the test. */
  const held: (() => void)[] = [];
  const source: McpResourceSource = {
    list: async () => ({ resources: [{ uri: 'memo://1', name: 'one' }] }),
    listTemplates: async () => ({ resourceTemplates: [] }),
    read: async ({ uri }) => ({ contents: [{ uri, text: `read ${uri}` }] }),
    subscribe: async (uri) => {
      calls.push(`subscribe ${uri}`);
      if (uri === 'memo://refused') throw new ProtocolError(-32602, 'refused on purpose');
      if (uri === 'memo://slow') await new Promise<void>((resolve) => held.push(resolve));
    },
    unsubscribe: async (uri) => {
      calls.push(`unsubscribe ${uri}`);
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (event: McpResourceEvent) => {
    for (const listener of listeners) listener(event);
  };
  return { source, calls, emit, held };
};

/** Log messages sent by the test; records the levels it was given. */
const memoLogging = () => {
  const listeners = new Set<(params: LoggingMessageNotificationParams) => void>();
  const levels: LoggingLevel[] = [];
  const source: McpLogSource = {
    setLevel: async (level) => {
      levels.push(level);
    },
    onMessage: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const send = (params: LoggingMessageNotificationParams) => {
    for (const listener of listeners) listener(params);
  };
  return { source, levels, send };
};

const connect = async (toolServer: McpToolServer) => {
  const updated: string[] = [];
  const messages: unknown[] = [];
  const client = new Client({ name: 'relay-test', version: '1.0.0' });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updated.push(notification.params.uri);
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    messages.push(notification.params.data);
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer.createServer().connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return { client, updated, messages };
};

const serve = (options: Omit<Parameters<typeof createMcpToolServer>[0], 'runtime'>) => {
  const toolServer = createMcpToolServer({ runtime: createRuntime({ tools: [] }), ...options });
  cleanups.push(() => toolServer.close());
  return toolServer;
};

describe('createMcpToolServer with resource, prompt and log sources', () => {
  it('watches a URI once for two clients, sends its updates to them, and stops when both left', async () => {
    const memo = memoResources();
    const toolServer = serve({ resources: memo.source });
    const a = await connect(toolServer);
    const b = await connect(toolServer);
    const c = await connect(toolServer);
    expect((await a.client.readResource({ uri: 'memo://1' })).contents[0]).toMatchObject({
      text: 'read memo://1',
    });

    await a.client.subscribeResource({ uri: 'memo://1' });
    await b.client.subscribeResource({ uri: 'memo://1' });
    await c.client.subscribeResource({ uri: 'memo://2' });
    expect(memo.calls).toEqual(['subscribe memo://1', 'subscribe memo://2']);
    memo.emit({ kind: 'updated', params: { uri: 'memo://1' } });
    memo.emit({ kind: 'updated', params: { uri: 'memo://2' } });
    await eventually(() => a.updated.length + b.updated.length === 2 && c.updated.length === 1);
    expect([a.updated, b.updated, c.updated]).toEqual([['memo://1'], ['memo://1'], ['memo://2']]);

    await a.client.unsubscribeResource({ uri: 'memo://1' });
    expect(memo.calls).not.toContain('unsubscribe memo://1');
    await b.client.close();
    await eventually(() => memo.calls.includes('unsubscribe memo://1'));

    const refused = await c.client.subscribeResource({ uri: 'memo://refused' }).catch((e) => e);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).message).toContain('refused on purpose');
  });

  it('lets go of a URI whose only client left while the source was still subscribing', async () => {
    const memo = memoResources();
    const toolServer = serve({ resources: memo.source });
    const a = await connect(toolServer);
    const pending = a.client.subscribeResource({ uri: 'memo://slow' }).catch(() => 'closed');
    await eventually(() => memo.held.length === 1);
    await a.client.close();
    for (const release of memo.held) release();
    await eventually(() => memo.calls.includes('unsubscribe memo://slow'));
    expect(memo.calls).toEqual(['subscribe memo://slow', 'unsubscribe memo://slow']);
    await pending;
  });

  it('asks the source for the least severe level set, and gives each client what its level lets through', async () => {
    const memo = memoLogging();
    const toolServer = serve({ logging: memo.source });
    const quiet = await connect(toolServer);
    const chatty = await connect(toolServer);
    const unset = await connect(toolServer);
    await quiet.client.setLoggingLevel('error');
    await chatty.client.setLoggingLevel('debug');
    expect(memo.levels).toEqual(['error', 'debug']);

    memo.send({ level: 'info', data: 'one' });
    memo.send({ level: 'critical', data: 'two' });
    await eventually(() => quiet.messages.length === 1 && unset.messages.length === 2);
    await eventually(() => chatty.messages.length === 2);
    expect(quiet.messages).toEqual(['two']);
    expect(chatty.messages).toEqual(['one', 'two']);
  });

  it('declares resources, prompts and logging only when given their sources, and checks them', async () => {
    const plain = await connect(serve({}));
    expect(plain.client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
    const withResources = await connect(serve({ resources: memoResources().source }));
    expect(withResources.client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    expect(() =>
      createMcpToolServer({
        runtime: createRuntime({ tools: [] }),
        prompts: { list: async () => ({ prompts: [] }) } as never,
      }),
    ).toThrow(/prompts must be an object with the methods list, get, onListChanged; missing get/);
  });
});
