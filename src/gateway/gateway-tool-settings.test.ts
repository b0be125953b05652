import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discoveryDirs, readToolModule } from '../discovery/discovery.test-helpers.js';
import { createToolDiscovery } from '../discovery/index.js';
import { HintgateError } from '../errors/index.js';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { createFixtureServer, nodeScriptArgs } from '../testing/index.js';
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

  it("keeps an entry off a tool an upstream adds after start under its name (its server's settings apply), checks the names on every change and tells each problem once", async () => {
    const dirs = await discoveryDirs();
    cleanups.push(() => dirs.cleanup());
    await dirs.writeGlobal('weather.mjs', readToolModule('weather', 'sunny'));
    await dirs.writeGlobal('tides.mjs', readToolModule('tides', 'high'));
    // A project not trusted yet: its tools are held back, so unknown names only warn.
    await dirs.writeProject('deploy.mjs', readToolModule('deploy', 'deployed'));
    const records = await createFixtureServer({
      dir: dirs.project,
      name: 'records',
      tools: [
        { name: 'lookup', description: 'Looks up a record.', annotations: { readOnlyHint: true } },
        { name: 'notify_changed', description: 'Announces a changed list.' },
      ],
      extra: { trusted: true },
    });
    const file = join(dirs.project, 'hintgate.yaml');
    await writeFile(
      file,
      [
        'mode: yolo',
        'pin: { newTools: allow }',
        'servers:',
        `  records: ${JSON.stringify({ ...records.entry, tools: { forecast: { annotations: { title: 'Forecast' } } } })}`,
        'tools:',
        '  tides: { timeoutMs: 3000 }',
        '  forecast: { timeoutMs: 1234 }',
        '',
      ].join('\n'),
    );
    const config = await loadGatewayConfig(file);
    await pinGateway({ config });
    const notices: string[] = [];
    const gateway = await createGateway({
      config,
      onNotice: (message) => notices.push(message),
      onError: () => {},
      watchPins: false,
      discoverTools: (registry) =>
        createToolDiscovery({
          registry,
          project: dirs.project,
          env: { HINTGATE_HOME: dirs.home },
          lifecycle: false,
        }),
    });
    cleanups.push(() => gateway.close());
    const { registry } = gateway.runtime;
    const later = (name: string) => notices.filter((n) => n.includes(`: tools.${name} `));
    expect(later('forecast')).toEqual([
      expect.stringMatching(/^.*hintgate\.yaml:7:3: tools\.forecast names no tool\..*held back/),
    ]);
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());

    // The server adds "forecast" and says so: the entry, written for a local tool, does not
    // reach the server's tool (the server chose the name); the server's own configuration
    // of it does, and the person is told where the entry belongs.
    await records.setTools([
      { name: 'lookup', description: 'Looks up a record.', annotations: { readOnlyHint: true } },
      { name: 'notify_changed', description: 'Announces a changed list.' },
      { name: 'forecast', description: 'Forecasts.', annotations: { readOnlyHint: true } },
    ]);
    await client.client.callTool({ name: 'notify_changed', arguments: {} });
    await vi.waitFor(() => expect(registry.resolve('forecast')).toBeDefined(), {
      timeout: 20_000,
    });
    const forecast = registry.describe().find((entry) => entry.name === 'forecast');
    expect(forecast?.origin).toBe('records');
    expect(forecast?.timeoutMs).toBeUndefined();
    expect(forecast?.claimed.title).toBe('Forecast');
    await vi.waitFor(() => expect(later('forecast')).toHaveLength(2));
    expect(later('forecast')[1]).toMatch(
      /hintgate\.yaml:7:3: tools\.forecast is now the name of a tool of server "records", and does not apply to it \(an entry here is for local tools\); configure that tool under servers\.records\.tools\.forecast instead\.$/,
    );

    // A changed module file: "tides" is now "tide". The entry names no tool, told once.
    await dirs.writeGlobal('tides.mjs', readToolModule('tide', 'high'));
    await registry.reload();
    await vi.waitFor(() => expect(registry.resolve('tide')).toBeDefined());
    await vi.waitFor(() => expect(later('tides')).toHaveLength(1));
    expect(later('tides')[0]).toMatch(
      /hintgate\.yaml:6:3: tools\.tides names no tool now; did you mean "tide"\?/,
    );
    // Calls, and another list that keeps the names, tell nothing more.
    for (let i = 0; i < 3; i += 1) {
      await client.client.callTool({ name: 'forecast', arguments: {} });
      await client.client.callTool({ name: 'tides', arguments: {} });
    }
    await client.client.callTool({ name: 'notify_changed', arguments: {} });
    await registry.reload();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(later('tides')).toHaveLength(1);
    expect(later('forecast')).toHaveLength(2);
    // Back under its name, the entry applies to the changed module's tool.
    await dirs.writeGlobal('tides.mjs', readToolModule('tides', 'low'));
    await registry.reload();
    await vi.waitFor(() => expect(registry.resolve('tides')?.timeoutMs).toBe(3000));
  }, 60_000);
});
