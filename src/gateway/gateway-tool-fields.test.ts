import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { createGateway } from './create-gateway.js';
import { tempDir, toolsFileServer, writeConfig } from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// Tool fields hintgate does not interpret reach the gateway's clients as the server lists them.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('tool fields the gateway passes through', () => {
  it('lists execution (task support) and icons as the server lists them, and adds none to a tool without them', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const icons = [
      { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] },
    ];
    const fixture = await toolsFileServer(dir, 'jobs', [
      {
        name: 'long_job',
        description: 'Runs for a while.',
        annotations: { readOnlyHint: true },
        execution: { taskSupport: 'optional' },
        icons,
      } as never,
      { name: 'plain', description: 'Nothing more.' },
    ]);
    const config = await writeConfig(dir, { servers: { jobs: fixture.entry } });
    await pinGateway({ config });
    const gateway = await createGateway({
      config,
      onNotice: () => {},
      onError: () => {},
      watchPins: false,
    });
    cleanups.push(() => gateway.close());
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());
    const { tools } = await client.client.listTools();
    const job = tools.find((tool) => tool.name === 'long_job');
    expect(job?.execution).toEqual({ taskSupport: 'optional' });
    expect(job?.icons).toEqual(icons);
    expect(job?.description).toBe('Runs for a while.');
    const plain = tools.find((tool) => tool.name === 'plain');
    expect(plain).toBeDefined();
    expect(plain?.execution).toBeUndefined();
  });
});
