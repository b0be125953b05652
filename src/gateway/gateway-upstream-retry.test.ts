import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { nodeScriptArgs } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import { REPO_ROOT, resultText, tempDir, writeConfig } from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// A trusted read-only call whose server dies under it is sent again after the reconnect.

const FIXTURE = fileURLToPath(new URL('./fixtures/raw-json-rpc-server.ts', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gatewayOver(trusted: boolean) {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeConfig(dir, {
    mode: 'yolo',
    servers: {
      records: {
        command: process.execPath,
        args: nodeScriptArgs(FIXTURE),
        cwd: REPO_ROOT,
        env: { FIXTURE_STATE_DIR: dir },
        trusted,
      },
    },
  });
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
  return client;
}

describe('a read through the gateway whose server crashes during the call', () => {
  it('gets the result after the reconnect when the server is trusted', async () => {
    const client = await gatewayOver(true);
    const result = (await client.client.callTool({
      name: 'crash_once_read',
      arguments: {},
    })) as { content: unknown[]; isError?: boolean };
    expect(result.isError ?? false).toBe(false);
    expect(resultText(result)).toBe('read after restart');
  }, 60_000);

  it('ends upstream_unavailable when the server is not trusted (its hints are not used)', async () => {
    const client = await gatewayOver(false);
    const result = (await client.client.callTool({
      name: 'crash_once_read',
      arguments: {},
    })) as { content: unknown[]; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain('upstream_unavailable');
  }, 60_000);
});
