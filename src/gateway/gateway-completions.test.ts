import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type TestClient } from '../mcp/server/mcp-clients.test-helpers.js';
import { createGateway, type Gateway } from './create-gateway.js';
import { everythingServer, tempDir, writeConfig } from './gateway.test-helpers.js';

// completion/complete is relayed to the server of the prompt or resource template it names,
// over the real @modelcontextprotocol/server-everything.

let gateway: Gateway;
let client: TestClient;
let remove: () => Promise<void>;

beforeAll(async () => {
  const made = await tempDir();
  remove = made.remove;
  const config = await writeConfig(made.dir, {
    servers: { everything: everythingServer() },
    pin: { newTools: 'allow' },
  });
  gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
  });
  client = await connectInMemory(gateway.toolServer);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await remove?.();
});

describe('completions through the gateway', () => {
  it('declares completions and completes a prompt argument on the prompt server', async () => {
    expect(client.client.getServerCapabilities()?.completions).toBeDefined();
    const { completion } = await client.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'Ma' },
    });
    expect(completion.values).toEqual(['Marketing']);
    const dependent = await client.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(dependent.completion.values).toEqual(['David', 'Eve', 'Frank']);
  });

  it('completes a resource template variable on the server that lists the template, and suggests nothing for an unknown one', async () => {
    const { resourceTemplates } = await client.client.listResourceTemplates();
    const template = resourceTemplates.find((entry) => entry.uriTemplate.includes('{resourceId}'));
    expect(template).toBeDefined();
    const { completion } = await client.client.complete({
      ref: { type: 'ref/resource', uri: template?.uriTemplate ?? '' },
      argument: { name: 'resourceId', value: '1' },
    });
    expect(completion.values.length).toBeGreaterThan(0);
    const none = await client.client.complete({
      ref: { type: 'ref/prompt', name: 'no-such-prompt' },
      argument: { name: 'x', value: '' },
    });
    expect(none.completion.values).toEqual([]);
  });
});
