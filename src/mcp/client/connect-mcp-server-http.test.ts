import { afterEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import { nextEvent, waitFor } from '../../testing/index.js';
import type { CallResult } from '../../tool/index.js';
import { connectMcpServer } from './connect-mcp-server.js';
import type { McpServerConnection } from './connection-events.js';
import { type HttpFixture, startHttpFixture } from './fixtures/fixtures.test-helpers.js';

const textOf = (result: CallResult | undefined): string => {
  const block = result?.content[0];
  return block?.type === 'text' ? block.text : '';
};

const fixtures: HttpFixture[] = [];
const connections: McpServerConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await Promise.all(fixtures.splice(0).map((f) => f.stop()));
});

const start = async (options: { port?: number; token?: string }) => {
  const fixture = await startHttpFixture(options);
  fixtures.push(fixture);
  return fixture;
};

describe('connectMcpServer over Streamable HTTP', () => {
  it.each(['auto', 'legacy'] as const)(
    'lists and calls tools with the headers given (era %s)',
    async (era) => {
      const fixture = await start({ token: 's3cret' });
      const registry = createRegistry();
      const connection = await connectMcpServer({
        name: 'remote',
        registry,
        era,
        url: fixture.url,
        headers: { 'x-fixture-token': 's3cret' },
      });
      connections.push(connection);
      expect(connection.protocolEra).toBe(era === 'auto' ? 'modern' : 'legacy');
      expect(connection.serverInfo?.name).toBe('hintgate-fixture');
      const runtime = createRuntime({ registry, mode: 'yolo' });
      const lookup = runtime.listTools().find((t) => t.name === 'lookup');
      expect(lookup?.annotations).toEqual({
        title: 'Lookup',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(runtime.listTools().find((t) => t.name === 'plain')).not.toHaveProperty('annotations');
      const [whoami, found] = await runtime.execute([
        { id: 'w', name: 'whoami' },
        { id: 'l', name: 'lookup', arguments: { key: 'k' } },
      ]);
      expect(textOf(whoami)).toBe('s3cret');
      expect(found?.structuredContent).toEqual({ found: true, key: 'k' });
    },
  );

  it('fails to connect with a clear error when the server refuses the credentials', async () => {
    const fixture = await start({ token: 's3cret' });
    const failure = connectMcpServer({
      name: 'remote',
      registry: createRegistry(),
      url: fixture.url,
      headers: { 'x-fixture-token': 'wrong' },
    });
    await expect(failure).rejects.toMatchObject({ code: 'mcp_connect_failed' });
    await expect(failure).rejects.toThrow(
      `Could not connect to MCP server "remote" (url ${fixture.url})`,
    );
    await expect(failure).rejects.toThrow(/check the credentials in "headers"/);
  });

  it('reports upstream_unavailable when the server vanishes, and reconnects when it is back', async () => {
    const first = await start({});
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'remote',
      registry,
      url: first.url,
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    connections.push(connection);
    const runtime = createRuntime({ registry, mode: 'yolo' });
    await first.stop();

    const [gone] = await runtime.execute([{ id: 'a', name: 'plain' }]);
    expect(gone?.error?.code).toBe('upstream_unavailable');
    expect(connection.status).toBe('reconnecting');
    expect(registry.resolve('plain')?.origin).toBe('remote');

    const ready = nextEvent(connection, 'status', { accept: (e) => e.status === 'ready' });
    await start({ port: first.port });
    await ready;
    const [back] = await runtime.execute([
      { id: 'b', name: 'plain', arguments: { text: 'again' } },
    ]);
    expect(back?.status).toBe('ok');
    expect(textOf(back)).toBe('plain {"text":"again"}');
  });

  it('opens the notification stream again when only the stream dropped, without reconnecting (era auto)', async () => {
    const fixture = await start({});
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'remote',
      registry,
      url: fixture.url,
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    connections.push(connection);
    const statuses: string[] = [];
    connection.on('status', (event) => statuses.push(event.status));
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const [dropped] = await runtime.execute([{ id: 'd', name: 'drop_streams' }]);
    expect(textOf(dropped)).toBe('1');

    const changed = nextEvent(connection, 'change');
    await waitFor(async () => {
      const [added] = await runtime.execute([{ id: 'a', name: 'add_tool' }]);
      expect(added?.status).toBe('ok');
      return registry.resolve('added_later') === undefined ? undefined : true;
    });
    expect((await changed).tools.map((t) => t.name)).toContain('added_later');
    expect(statuses).toEqual([]);
    expect(connection.status).toBe('ready');
  });
});
