import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { discoveryDirs, readToolModule } from '../discovery/discovery.test-helpers.js';
import { createToolDiscovery } from '../discovery/index.js';
import { HintgateError } from '../errors/index.js';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { nodeScriptArgs } from '../node-script.test-helpers.js';
import { loadGatewayConfig } from './config/index.js';
import { createGateway } from './create-gateway.js';
import { REPO_ROOT } from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// Top-level `tools:` of hintgate.yaml configures the tools of the global and project tool
// folders by name, as servers.X.tools.Y does an upstream server's.

const FIXTURE = fileURLToPath(new URL('./fixtures/raw-json-rpc-server.ts', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(tools: string) {
  const dirs = await discoveryDirs();
  cleanups.push(() => dirs.cleanup());
  await dirs.writeGlobal('weather.mjs', readToolModule('weather', 'sunny'));
  await dirs.writeGlobal('tides.mjs', readToolModule('tides', 'high'));
  const file = join(dirs.project, 'hintgate.yaml');
  await writeFile(
    file,
    [
      'mode: yolo',
      'servers:',
      '  records:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ${JSON.stringify(nodeScriptArgs(FIXTURE))}`,
      `    cwd: ${JSON.stringify(REPO_ROOT)}`,
      'tools:',
      tools,
      '',
    ].join('\n'),
  );
  const config = await loadGatewayConfig(file);
  await pinGateway({ config });
  const start = () =>
    createGateway({
      config,
      onNotice: () => {},
      onError: () => {},
      watchPins: false,
      discoverTools: (registry) =>
        createToolDiscovery({ registry, env: { HINTGATE_HOME: dirs.home }, lifecycle: false }),
    });
  return { start, file };
}

describe('tools: of hintgate.yaml', () => {
  it('hides a global tool with enabled: false and gives another its timeoutMs', async () => {
    const { start } = await setup('  weather: { enabled: false }\n  tides: { timeoutMs: 2500 }');
    const gateway = await start();
    cleanups.push(() => gateway.close());
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());
    const names = (await client.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('tides');
    expect(names).toContain('search');
    expect(names).not.toContain('weather');
    const called = (await client.client.callTool({ name: 'weather', arguments: {} })) as {
      isError?: boolean;
    };
    expect(called.isError).toBe(true);
    const tides = gateway.runtime.registry.describe().find((entry) => entry.name === 'tides');
    expect(tides?.timeoutMs).toBe(2500);
  }, 30_000);

  it('refuses to start on a name no tool has, naming the file, line and the likely name', async () => {
    const { start, file } = await setup('  wether: { enabled: false }');
    const error = await start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HintgateError);
    expect((error as HintgateError).code).toBe('invalid_config');
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:8:3: tools\\.wether names no tool; did you mean "weather"\\?`,
      ),
    );
  }, 30_000);

  it('points a tool of an upstream server to servers.X.tools', async () => {
    const { start } = await setup('  search: { timeoutMs: 100 }');
    await expect(start()).rejects.toThrow(
      /tools\.search names no tool\..*configured under servers\.<server>\.tools\.<name>/,
    );
  }, 30_000);
});
