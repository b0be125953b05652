import { afterEach, describe, expect, it } from 'vitest';
import { discoveryDirs, readToolModule } from '../discovery/discovery.test-helpers.js';
import { createToolDiscovery } from '../discovery/index.js';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { createGateway } from './create-gateway.js';
import {
  type FixtureTool,
  resultText,
  toolsFileServer,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// The gateway configures an upstream tool (its overrides under servers.X.tools, the trust
// and approval its pin gives, its being held back) for that server's tool only: a global
// tool that has the same name wins the name in the registry and keeps its own configuration,
// whatever names an upstream server chooses.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A global tool `name` that says it deletes things and answers `text`. */
const destructiveModule = (name: string, text: string): string => `
export default (api) => api.defineTool({
  name: ${JSON.stringify(name)},
  description: 'deletes things',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  scopes: ['admin'],
  execute: () => ${JSON.stringify(text)},
});
`;

const tool = (name: string): FixtureTool => ({ name, description: `The ${name} tool.` });

async function start(options: {
  readonly upstream: readonly FixtureTool[];
  /** Keys of the `up` server's entry besides how to run it. */
  readonly server?: Record<string, unknown>;
  readonly pin: boolean;
  readonly newTools?: 'pending' | 'ask';
}) {
  const dirs = await discoveryDirs();
  cleanups.push(() => dirs.cleanup());
  await dirs.writeGlobal('wipe.mjs', destructiveModule('wipe', 'wiped locally'));
  await dirs.writeGlobal('weather.mjs', readToolModule('weather', 'sunny'));
  const up = await toolsFileServer(dirs.project, 'up', options.upstream);
  const config = await writeConfig(dirs.project, {
    servers: { up: { ...up.entry, ...options.server } },
    pin: { newTools: options.newTools ?? 'pending' },
  });
  if (options.pin) await pinGateway({ config });
  const gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
    discoverTools: (registry) =>
      createToolDiscovery({ registry, env: { HINTGATE_HOME: dirs.home }, lifecycle: false }),
  });
  cleanups.push(() => gateway.close());
  const client = await connectInMemory(gateway.toolServer);
  cleanups.push(() => client.close());
  const entry = (name: string) =>
    gateway.runtime.registry.describe().find((described) => described.name === name);
  const call = async (name: string) =>
    (await client.client.callTool({ name, arguments: {} })) as {
      content: unknown[];
      isError?: boolean;
    };
  return { gateway, entry, call };
}

describe('gateway configuration of an upstream tool and a global tool of the same name', () => {
  it('gives the read-only annotations and scopes of servers.X.tools.wipe to the upstream tool only', async () => {
    const { entry } = await start({
      upstream: [tool('wipe'), tool('echo')],
      server: {
        trusted: true,
        tools: {
          wipe: { annotations: { readOnlyHint: true }, scopes: [] },
          echo: { annotations: { readOnlyHint: true } },
        },
      },
      pin: true,
    });
    const wipe = entry('wipe');
    expect(wipe?.layer).toBe('global');
    // The global tool keeps its own claim and scopes, not the upstream's override.
    expect(wipe?.claimed.readOnlyHint).toBe(false);
    expect(wipe?.effective.readOnlyHint).toBe(false);
    expect(wipe?.effective.destructiveHint).toBe(true);
    expect(wipe?.class).toBe('destructive');
    expect(wipe?.scopes).toEqual(['admin']);
    expect(wipe?.shadows.map((shadowed) => shadowed.origin)).toEqual(['up']);
    // The server's tool of a name no local tool has gets its override.
    expect(entry('echo')?.origin).toBe('up');
    expect(entry('echo')?.effective.readOnlyHint).toBe(true);
  }, 30_000);

  it('does not hold back a global tool because an unpinned upstream tool has its name', async () => {
    const { gateway, entry, call } = await start({
      upstream: [tool('weather'), tool('echo')],
      pin: false,
    });
    const weather = entry('weather');
    expect(weather?.layer).toBe('global');
    expect(weather?.blocked).toBeUndefined();
    const result = await call('weather');
    expect(result.isError).not.toBe(true);
    expect(resultText(result)).toBe('sunny');
    const state = gateway.toolStates().find((described) => described.name === 'weather');
    expect(state?.heldBack).toBeUndefined();
    expect(state?.pin).toBeUndefined();
  }, 30_000);

  it('does not make a global tool ask or distrust it because an upstream tool of its name is not pinned (newTools: ask)', async () => {
    const { gateway, entry } = await start({
      upstream: [tool('weather'), tool('echo')],
      pin: false,
      newTools: 'ask',
    });
    const weather = entry('weather');
    expect(weather?.layer).toBe('global');
    expect(weather?.requireApproval).toBeUndefined();
    expect(weather?.trusted).toBe(true);
    expect(weather?.class).toBe('read');
    // The server's own unpinned tool does ask.
    expect(entry('echo')?.requireApproval?.reason).toContain('not pinned yet');
    const state = gateway.toolStates().find((described) => described.name === 'weather');
    expect(state?.requireApproval).toBeUndefined();
  }, 30_000);
});
