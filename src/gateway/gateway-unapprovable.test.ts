import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readLockFile, writeLockFile } from '../check/pin/index.js';
import { connectInMemory, type TestClient } from '../mcp/server/mcp-clients.test-helpers.js';
import { type LoadedGatewayConfig, VERIFIED_CONCURRENCY } from './config/index.js';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  auditEvents,
  type FixtureTool,
  resultText,
  tempDir,
  toolsFileServer,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// Calls that need approval from a client that cannot ask its user: the denial names, for
// that tool, the ways to let it run; and servers whose tools are all verified run calls
// concurrently. Over the tools-file fixture server.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TOOLS: FixtureTool[] = [
  { name: 'lookup', description: 'Reads a record.', annotations: { readOnlyHint: true } },
  {
    name: 'save',
    description: 'Saves a record.',
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  { name: 'wipe', description: 'Deletes every record.', annotations: { destructiveHint: true } },
];

const start = async (config: LoadedGatewayConfig): Promise<Gateway> => {
  const gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
  });
  cleanups.push(() => gateway.close());
  return gateway;
};

/** A client that declares no elicitation: it can ask its user nothing. */
const plainClient = async (gateway: Gateway): Promise<TestClient> => {
  const client = await connectInMemory(gateway.toolServer);
  cleanups.push(() => client.close());
  return client;
};

type Result = { content: unknown[]; isError?: boolean; _meta?: Record<string, unknown> };
const call = async (client: TestClient, name: string): Promise<Result> =>
  (await client.client.callTool({ name, arguments: {} })) as Result;

/** A pinned gateway of the fixture server (untrusted) with `extra` settings. */
const setUp = async (extra: Record<string, unknown> = {}, tools = TOOLS) => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const fixture = await toolsFileServer(dir, 'records', tools);
  const write = (more: Record<string, unknown>) =>
    writeConfig(dir, { servers: { records: fixture.entry }, ...extra, ...more });
  const config = await write({});
  await pinGateway({ config });
  return { dir, config, write };
};

/** The position of each text in `text`; fails when one is missing. */
const positions = (text: string, parts: readonly string[]): number[] =>
  parts.map((part) => {
    const at = text.indexOf(part);
    if (at < 0) throw new Error(`missing ${JSON.stringify(part)} in: ${text}`);
    return at;
  });

describe('a call denied because the client cannot ask its user', () => {
  it('names, for a read-only tool of an untrusted server, the ways out in order: verify, trust or vouch (the lines), an allow rule (the line), a client that can approve; the audit reason says the same', async () => {
    const { config, write } = await setUp();
    const gateway = await start(config);
    const client = await plainClient(gateway);

    const denied = await call(client, 'lookup');
    expect(denied.isError).toBe(true);
    expect(denied._meta?.['dev.hintgate/code']).toBe('denied');
    const text = resultText(denied);
    const order = positions(text, [
      'cannot ask its user',
      `hintgate check --config ${config.file} --probe --write-pin`,
      'trusted: true',
      'tools: { lookup: { annotations: { readOnlyHint: true } } }',
      '- { origin: records, tool: lookup, decision: allow }',
      'MCP client that can show an approval form',
    ]);
    expect(order).toEqual([...order].sort((a, b) => a - b));

    const ways = text.slice(text.indexOf('Ways to let'), text.indexOf('. Do not retry'));
    const events = await auditEvents(config.audit.path);
    const approval = events.find((e) => e.type === 'approval.denied' && e.tool === 'lookup');
    const failed = events.find((e) => e.type === 'call.failed' && e.tool === 'lookup');
    expect(approval?.reason).toContain(ways);
    expect(failed?.reason).toContain(ways);

    // The rule it names, added as written, lets the call run.
    const rule = /`(- \{ origin: records[^`]*\})`/.exec(text)?.[1] ?? '';
    const [parsedRule] = parseYaml(rule) as Record<string, unknown>[];
    const allowed = await start(await write({ rules: [parsedRule] }));
    expect(resultText(await call(await plainClient(allowed), 'lookup'))).toBe('records lookup {}');
  });

  it('offers no verification for a tool whose claimed class the mode asks about anyway, and outranks an ask rule that decided', async () => {
    const { config } = await setUp({
      rules: [{ tool: 'save', decision: 'ask', priority: 5, reason: 'saves are confirmed' }],
    });
    const gateway = await start(config);
    const client = await plainClient(gateway);

    const wipe = resultText(await call(client, 'wipe'));
    expect(wipe).not.toContain('hintgate check');
    expect(wipe).toContain('(1) allow it with a rule');
    expect(wipe).toContain('- { origin: records, tool: wipe, decision: allow }');
    expect(wipe).toContain('(2) or use an MCP client that can show an approval form');

    const save = resultText(await call(client, 'save'));
    expect(save).toContain('- { origin: records, tool: save, decision: allow, priority: 6 }');
    expect(save).not.toContain('trusted: true');
  });

  it('tells a tool that is not pinned yet (pin.newTools: ask) to be pinned', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const fixture = await toolsFileServer(dir, 'records', TOOLS);
    const config = await writeConfig(dir, {
      servers: { records: { ...fixture.entry, trusted: true } },
      pin: { newTools: 'ask' },
    });
    const gateway = await start(config);
    const text = resultText(await call(await plainClient(gateway), 'lookup'));
    expect(text).toContain(
      `(1) review its definition and pin it with \`hintgate pin --config ${config.file}\``,
    );
    expect(text).not.toContain('decision: allow');
  });
});

describe('servers whose tools are all verified', () => {
  const MEET: FixtureTool[] = [
    { name: 'meet', description: 'Waits for company.', annotations: { readOnlyHint: true } },
    { name: 'lookup', description: 'Reads a record.', annotations: { readOnlyHint: true } },
  ];

  const setVerdicts = async (config: LoadedGatewayConfig, verified: readonly string[]) => {
    const lock = await readLockFile(config.pin.path);
    const pinned = lock.servers.records;
    if (pinned === undefined) throw new Error('no pins of records');
    const tools = Object.fromEntries(
      Object.entries(pinned.tools).map(([name, pin]) => [
        name,
        verified.includes(name) ? { ...pin, verdict: 'verified' as const } : pin,
      ]),
    );
    await writeLockFile(config.pin.path, { ...lock, servers: { records: { tools } } });
  };

  it(`run up to ${VERIFIED_CONCURRENCY} calls at once: two calls that each wait for the other both end`, async () => {
    const { config } = await setUp({}, MEET);
    await setVerdicts(config, ['meet', 'lookup']);
    const gateway = await start(config);
    expect(gateway.runtime.registry.origin('records')?.concurrency).toBe(VERIFIED_CONCURRENCY);

    const results = await gateway.runtime.execute([
      { id: 'a', name: 'meet', arguments: { of: 2 } },
      { id: 'b', name: 'meet', arguments: { of: 2 } },
    ]);
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok']);
  });

  it('keep one call at a time while any tool is not verified, or when the configuration sets concurrency', async () => {
    const partly = await setUp({}, MEET);
    await setVerdicts(partly.config, ['meet']);
    const gateway = await start(partly.config);
    expect(gateway.runtime.registry.origin('records')?.concurrency).toBeUndefined();

    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const fixture = await toolsFileServer(dir, 'records', MEET);
    const config = await writeConfig(dir, {
      servers: { records: { ...fixture.entry, concurrency: 2 } },
    });
    await pinGateway({ config });
    await setVerdicts(config, ['meet', 'lookup']);
    const stated = await start(config);
    expect(stated.runtime.registry.origin('records')?.concurrency).toBe(2);
  });
});
