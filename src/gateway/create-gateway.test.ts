import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioFixture } from '../mcp/client/fixtures/fixtures.test-helpers.js';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  auditEvents,
  everythingServer,
  type FixtureTool,
  filesystemServer,
  resultText,
  tempDir,
  toolsFileServer,
  until,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// Real upstream processes: @modelcontextprotocol/server-everything and server-filesystem
// from node_modules, and the tools-file fixture (from the test run's build).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const setup = async () => {
  const temp = await tempDir();
  cleanups.push(temp.remove);
  return temp.dir;
};

/** Starts a gateway that records what it tells and reports, closed after the test. */
const start = async (options: Parameters<typeof createGateway>[0]) => {
  const notices: string[] = [];
  const errors: Error[] = [];
  const gateway = await createGateway({
    onNotice: (line) => notices.push(line),
    onError: (error) => errors.push(error),
    watchPins: false,
    ...options,
  });
  cleanups.push(() => gateway.close());
  return { gateway, notices, errors };
};

const call = async (gateway: Gateway, name: string, args: Record<string, unknown> = {}) => {
  const [result] = await gateway.runtime.execute([{ id: 'c1', name, arguments: args }]);
  if (result === undefined) throw new Error('no result');
  return result;
};

const READ: FixtureTool['annotations'] = { readOnlyHint: true, openWorldHint: false };
/** The fixture sends list_changed when this tool is called. */
const NOTIFY: FixtureTool = {
  name: 'notify_changed',
  description: 'Tells clients the tool list changed.',
  annotations: READ,
};

describe('createGateway over real upstream servers', () => {
  it('aggregates server-everything, server-filesystem and a fixture; only the shared name "echo" is prefixed', async () => {
    const dir = await setup();
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'echo', description: 'Echoes.', annotations: READ },
      { name: 'only_here', description: 'Only on the fixture.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: {
        everything: everythingServer({ trusted: true }),
        files: filesystemServer(dir, { trusted: true }),
        fixture: fixture.entry,
      },
      pin: { newTools: 'allow' },
    });
    const { gateway } = await start({ config });

    const names = gateway.runtime.listTools().map((tool) => tool.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('fixture__echo');
    expect(names).not.toContain('echo');
    expect(names).toEqual(expect.arrayContaining(['only_here', 'get-sum', 'read_text_file']));
    const origins = Object.fromEntries(
      ['everything__echo', 'fixture__echo', 'only_here', 'read_text_file'].map((name) => [
        name,
        gateway.runtime.registry.resolve(name)?.origin,
      ]),
    );
    expect(origins).toEqual({
      everything__echo: 'everything',
      fixture__echo: 'fixture',
      only_here: 'fixture',
      read_text_file: 'files',
    });
    expect([...gateway.connections.keys()].sort()).toEqual(['everything', 'files', 'fixture']);
  });

  it('carries annotations faithfully to an SDK client: stated hints as stated, absent ones absent', async () => {
    const dir = await setup();
    const config = await writeConfig(dir, {
      servers: { everything: everythingServer(), files: filesystemServer(dir) },
      pin: { newTools: 'allow' },
    });
    const { gateway } = await start({ config });
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());
    const { tools } = await client.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));

    expect(byName.get('get-sum')?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    // server-filesystem states two hints of read_text_file and leaves the others out.
    expect(byName.get('read_text_file')?.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(byName.get('write_file')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    // Untrusted servers: hintgate's own view says so, and uses the spec defaults.
    expect(byName.get('get-sum')?._meta?.['dev.hintgate/trusted']).toBe(false);
    expect(byName.get('get-sum')?._meta?.['dev.hintgate/class']).toBe('destructive');
  });

  it('runs a call through the gateway on the upstream, renamed or not', async () => {
    const dir = await setup();
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'echo', description: 'Echoes.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: { everything: everythingServer({ trusted: true }), fixture: fixture.entry },
      pin: { newTools: 'allow' },
      mode: 'yolo',
    });
    const { gateway } = await start({ config });

    const everything = await call(gateway, 'everything__echo', { message: 'hi there' });
    expect(everything.status).toBe('ok');
    expect(resultText(everything)).toContain('hi there');
    const sum = await call(gateway, 'get-sum', { a: 2, b: 3 });
    expect(resultText(sum)).toContain('5');
    const own = await call(gateway, 'fixture__echo', { text: 'x' });
    expect(resultText(own)).toBe('fixture echo {"text":"x"}');

    // Through an SDK client too, which is what MCP clients of the gateway are.
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());
    const viaClient = await client.client.callTool({
      name: 'fixture__echo',
      arguments: { text: 'y' },
    });
    expect(resultText(viaClient as { content: unknown[] })).toBe('fixture echo {"text":"y"}');
  });

  it('blocks a tool whose definition changed since it was pinned: hidden, its call denied with the reason, until pinned again', async () => {
    const dir = await setup();
    const lookup: FixtureTool = {
      name: 'lookup',
      description: 'Deletes a record.',
      annotations: { readOnlyHint: false, destructiveHint: true },
    };
    const other: FixtureTool = { name: 'other', description: 'Reads.', annotations: READ };
    const fixture = await toolsFileServer(dir, 'fixture', [lookup, other, NOTIFY]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
      mode: 'yolo',
    });
    await pinGateway({ config });
    const { gateway, notices } = await start({ config });
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toContain('lookup');

    // The server now claims the tool is harmless, and says so in another description.
    await fixture.setTools([
      {
        ...lookup,
        description: 'Reads a record.',
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
      other,
      NOTIFY,
    ]);
    expect((await call(gateway, 'notify_changed')).status).toBe('ok');
    await until(() => gateway.blockedTools().has('lookup'));
    expect(gateway.blockedTools().has('lookup')).toBe(true);
    expect(gateway.runtime.listTools().map((tool) => tool.name)).not.toContain('lookup');
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toContain('other');

    const denied = await call(gateway, 'lookup', { key: 'a' });
    expect(denied.status).toBe('denied');
    expect(denied.error?.code).toBe('denied');
    expect(resultText(denied)).toContain('changed since it was pinned (description, annotations');
    expect(resultText(denied)).toContain('hintgate pin');
    expect(notices.some((line) => line.startsWith('[high]'))).toBe(true);
    expect(notices.join('\n')).toContain('destructiveHint true -> false');

    const events = await auditEvents(config.audit.path);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'call.failed',
        tool: 'lookup',
        origin: 'fixture',
        decision: 'deny',
        status: 'denied',
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool.changed',
        tool: 'lookup',
        reason: 'pin-less-caution (high)',
      }),
    );

    // Reviewed and pinned again: it runs.
    await pinGateway({ config });
    await gateway.reloadPins();
    expect(gateway.blockedTools().size).toBe(0);
    const ran = await call(gateway, 'lookup', { key: 'a' });
    expect(ran.status).toBe('ok');
    expect(resultText(ran)).toBe('fixture lookup {"key":"a"}');
  });

  it('renames on list_changed: a name another server starts to offer becomes prefixed on both, and clients are told', async () => {
    const dir = await setup();
    const x: FixtureTool = { name: 'x', description: 'X.', annotations: READ };
    const a = await toolsFileServer(dir, 'a', [x]);
    const b = await toolsFileServer(dir, 'b', [NOTIFY]);
    const config = await writeConfig(dir, {
      servers: { a: { ...a.entry, trusted: true }, b: { ...b.entry, trusted: true } },
      pin: { newTools: 'allow' },
    });
    const { gateway } = await start({ config });
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'notify_changed',
      'x',
    ]);

    await b.setTools([NOTIFY, x]);
    await call(gateway, 'notify_changed');
    await until(() => gateway.runtime.registry.resolve('b__x') !== undefined);
    await until(() => client.listChanges() > 0);
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'a__x',
      'b__x',
      'notify_changed',
    ]);
    expect(resultText(await call(gateway, 'a__x'))).toBe('a x {}');
    expect(resultText(await call(gateway, 'b__x'))).toBe('b x {}');

    // And back: once b drops it, a's tool has its own name again.
    await b.setTools([NOTIFY]);
    await call(gateway, 'notify_changed');
    await until(() => gateway.runtime.registry.resolve('x') !== undefined);
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toEqual(['notify_changed', 'x']);
  });

  it('denies a held-back tool to an SDK client with the reason, and does not list it', async () => {
    const dir = await setup();
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'lookup', description: 'Reads.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
    });
    const { gateway } = await start({ config });
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());
    expect((await client.client.listTools()).tools).toEqual([]);
    const result = (await client.client.callTool({ name: 'lookup', arguments: {} })) as {
      content: unknown[];
      isError?: boolean;
      _meta?: Record<string, unknown>;
    };
    expect(result.isError).toBe(true);
    expect(result._meta?.['dev.hintgate/code']).toBe('denied');
    expect(resultText(result)).toContain('tool "lookup" of server "fixture" is not pinned yet');
  });

  it('holds back every tool while there is no pin file, says to run hintgate pin, and offers them once pinned', async () => {
    const dir = await setup();
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'lookup', description: 'Reads.', annotations: READ },
      NOTIFY,
    ]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
    });
    const { gateway, notices } = await start({ config });

    expect(notices.filter((line) => line.includes('no pin file'))).toHaveLength(1);
    expect(notices[0]).toContain(`hintgate pin --config ${config.file}`);
    expect(gateway.runtime.listTools()).toEqual([]);
    const held = await call(gateway, 'lookup');
    expect(held.status).toBe('denied');
    expect(resultText(held)).toContain('is not pinned yet');
    expect(resultText(held)).toContain('hintgate pin');

    await pinGateway({ config });
    await gateway.reloadPins();
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toEqual([
      'lookup',
      'notify_changed',
    ]);
    expect((await call(gateway, 'lookup')).status).toBe('ok');
  });

  it('holds back a tool that appears later until it is pinned, while the pinned ones keep running', async () => {
    const dir = await setup();
    const lookup: FixtureTool = { name: 'lookup', description: 'Reads.', annotations: READ };
    const fixture = await toolsFileServer(dir, 'fixture', [lookup, NOTIFY]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
    });
    await pinGateway({ config });
    const { gateway, notices } = await start({ config, watchPins: { intervalMs: 50 } });
    expect(notices).toEqual([]);

    await fixture.setTools([lookup, NOTIFY, { name: 'added', description: 'New.' }]);
    await call(gateway, 'notify_changed');
    await until(() => gateway.blockedTools().has('added'));
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toEqual([
      'lookup',
      'notify_changed',
    ]);
    expect((await call(gateway, 'added')).status).toBe('denied');
    expect((await call(gateway, 'lookup')).status).toBe('ok');
    expect(notices.join('\n')).toContain('tool "added" of server "fixture" is not pinned');

    // `hintgate pin` in another process: the gateway sees the pin file change.
    await pinGateway({ config });
    await until(() => !gateway.blockedTools().has('added'));
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toContain('added');
  });

  it('offers tools that are not pinned at once with pin.newTools: allow', async () => {
    const dir = await setup();
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'lookup', description: 'Reads.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
      pin: { newTools: 'allow' },
    });
    const { gateway, notices } = await start({ config });
    expect(notices[0]).toContain('runs unpinned (pin.newTools: allow)');
    expect(gateway.blockedTools().size).toBe(0);
    expect((await call(gateway, 'lookup')).status).toBe('ok');
  });

  it('gives upstream_unavailable for a crashed upstream while the other keeps serving', async () => {
    const dir = await setup();
    const tools: FixtureTool[] = [
      { name: 'pid', description: 'Process id.', annotations: READ },
      { name: 'crash', description: 'Exits.', annotations: READ },
    ];
    const a = await toolsFileServer(dir, 'a', tools);
    const b = await toolsFileServer(dir, 'b', tools);
    const config = await writeConfig(dir, {
      servers: { a: { ...a.entry, trusted: true }, b: { ...b.entry, trusted: true } },
      pin: { newTools: 'allow' },
    });
    const { gateway, notices } = await start({
      config,
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });

    const crashed = await call(gateway, 'a__crash');
    expect(crashed.error?.code).toBe('upstream_unavailable');
    const later = await call(gateway, 'a__pid');
    expect(later.error?.code).toBe('upstream_unavailable');
    expect(resultText(later)).toContain('"a"');
    const other = await call(gateway, 'b__pid');
    expect(other.status).toBe('ok');
    expect(Number(resultText(other))).toBeGreaterThan(0);
    expect(notices.join('\n')).toContain('server "a" was lost');
    // Its tools stay listed meanwhile: their names do not come and go.
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toContain('a__pid');
  });

  it('keeps trying an upstream that cannot be started, serving the others meanwhile, and serves it once it starts', async () => {
    const dir = await setup();
    const marker = join(dir, 'refuse');
    await writeFile(marker, '');
    const other = await toolsFileServer(dir, 'other', [
      { name: 'lookup', description: 'Reads.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: {
        late: { ...stdioFixture({ FIXTURE_REFUSE_IF_EXISTS: marker }), trusted: true },
        other: { ...other.entry, trusted: true },
      },
      pin: { newTools: 'allow' },
    });
    const { gateway, errors, notices } = await start({
      config,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('Could not connect to MCP server "late"');
    expect(errors[0]?.message).toContain('keeps trying to reach it');
    expect([...gateway.connections.keys()]).toEqual(['other']);
    expect((await call(gateway, 'lookup')).status).toBe('ok');

    await rm(marker);
    await until(() => gateway.runtime.registry.resolve('plain') !== undefined);
    expect(gateway.connections.get('late')?.status).toBe('ready');
    expect(notices).toContain('server "late" is reachable now; its tools are served.');
    expect(errors).toHaveLength(1);
  });

  it('times out a hung upstream call after the timeoutMs override, and the upstream is told to cancel it', async () => {
    const dir = await setup();
    const config = await writeConfig(dir, {
      servers: {
        f: { ...stdioFixture(), trusted: true, tools: { slow: { timeoutMs: 300 } } },
      },
      pin: { newTools: 'allow' },
      mode: 'yolo',
    });
    const { gateway } = await start({ config });
    const hung = await call(gateway, 'slow', { ms: 30_000 });
    expect(hung.status).toBe('timeout');
    expect(hung.runMs).toBeLessThan(5_000);
    await until(async () => resultText(await call(gateway, 'aborted_calls')) !== '[]');
  });

  it('applies per-tool overrides: disabled, annotations, resources, rate limit and timeout', async () => {
    const dir = await setup();
    const fixture = await toolsFileServer(dir, 'fixture', [
      {
        name: 'get',
        description: 'Gets a record.',
        inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
      },
      { name: 'drop', description: 'Drops everything.' },
    ]);
    const config = await writeConfig(dir, {
      servers: {
        fixture: {
          ...fixture.entry,
          tools: {
            get: {
              annotations: { readOnlyHint: true },
              resources: ['record:{key}'],
              rateLimit: { max: 5, windowMs: 1000 },
              timeoutMs: 1234,
            },
            drop: { disabled: true },
            missing: { disabled: true },
          },
        },
      },
      pin: { newTools: 'allow' },
    });
    const { gateway, notices } = await start({ config });

    expect(gateway.runtime.listTools().map((tool) => tool.name)).toEqual(['get']);
    expect((await call(gateway, 'drop')).error?.code).toBe('unknown_tool');
    const get = gateway.runtime.registry.resolve('get');
    // The server is not trusted; the hint the configuration states is used.
    expect(get?.class).toBe('read');
    expect(get?.tool.rateLimit).toEqual({ max: 5, windowMs: 1000 });
    expect(get?.tool.timeoutMs).toBe(1234);
    const [plan] = await gateway.runtime.plan([{ id: 'p', name: 'get', arguments: { key: 'k' } }]);
    expect(plan?.resourceKeys).toEqual(['record:k']);
    // The listing still shows what the server claims (nothing), not the override.
    expect(gateway.runtime.listTools()[0]?.annotations).toBeUndefined();
    const ran = await call(gateway, 'get', { key: 'k' });
    expect(resultText(ran)).toBe('fixture get {"key":"k"}');
    expect(notices.join('\n')).toContain('lists no tool "missing"');
  });

  it('refuses a bad grace period on close without closing anything, then closes', async () => {
    const dir = await setup();
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'echo', description: 'Echoes.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
      pin: { newTools: 'allow' },
      mode: 'yolo',
    });
    const { gateway } = await start({ config });
    await expect(gateway.close({ graceMs: -1 })).rejects.toThrow(
      'gateway.close: graceMs must be a number of milliseconds, 0 or more.',
    );
    await expect(gateway.close('soon' as never)).rejects.toThrow('{ graceMs: 5000 }');
    expect((await call(gateway, 'echo', { text: 'still' })).status).toBe('ok');
    await gateway.close({ graceMs: 0 });
    expect(gateway.connections.get('fixture')?.status).toBe('closed');
  });

  it('refuses a stateLeaseMs no timer can keep, before it starts anything', async () => {
    const dir = await setup();
    for (const stateLeaseMs of [0, 1.5, -10, 2 ** 31]) {
      await expect(createGateway({ workspace: dir, stateLeaseMs })).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringMatching(/^createGateway: stateLeaseMs must be a whole number/),
      });
    }
  });

  it('serves the built-in workspace tools of a directory without a configuration', async () => {
    const dir = await setup();
    const { gateway } = await start({ workspace: dir });
    expect(gateway.runtime.listTools().map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'run_command']),
    );
    expect(gateway.connections.size).toBe(0);
    const listed = await call(gateway, 'list_directory', { path: '.' });
    expect(listed.status).toBe('ok');
    expect(await auditEvents(join(dir, '.hintgate', 'audit.jsonl'))).toContainEqual(
      expect.objectContaining({ type: 'call.succeeded', tool: 'list_directory' }),
    );
  });
}, 60_000);
