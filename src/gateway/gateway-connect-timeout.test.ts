import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from './create-gateway.js';
import { tempDir, toolsFileServer, writeConfig } from './gateway.test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server that starts and never answers. */
const hangs = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };

describe('connectTimeoutMs of a gateway server', () => {
  it('is read per server, and the message of a server that does not answer in time names it', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const other = await toolsFileServer(temp.dir, 'other', [
      { name: 'lookup', description: 'Reads.' },
    ]);
    const config = await writeConfig(temp.dir, {
      servers: { slow: { ...hangs, connectTimeoutMs: 300 }, other: other.entry },
      pin: { newTools: 'allow' },
    });
    expect(config.servers.map((server) => server.connectTimeoutMs)).toEqual([300, undefined]);

    const errors: Error[] = [];
    const gateway = await createGateway({
      config,
      onError: (error) => errors.push(error),
      onNotice: () => {},
      watchPins: false,
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    cleanups.push(() => gateway.close());
    expect(errors).toHaveLength(1);
    const message = errors[0]?.message ?? '';
    expect(message).toContain('Could not connect to MCP server "slow"');
    expect(message).toContain(
      'did not answer within 300 ms; raise "connectTimeoutMs" of server "slow" in the configuration if it starts slowly.',
    );
    expect(message).toContain('The gateway starts without it and keeps trying to reach it');
    expect([...gateway.connections.keys()]).toEqual(['other']);
  });

  it('must be a positive integer', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    await expect(
      writeConfig(temp.dir, { servers: { slow: { ...hangs, connectTimeoutMs: '30s' } } }),
    ).rejects.toThrow(/servers\.slow\.connectTimeoutMs is "30s"; use a positive integer/);
  });
});
