import { readFile } from 'node:fs/promises';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type PinVerdict, readLockFile, writeLockFile } from '../check/pin/index.js';
import { createMcpHttpHandler } from '../mcp/server/create-mcp-http-handler.js';
import {
  connectInMemory,
  connectOverFetch,
  type TestClient,
} from '../mcp/server/mcp-clients.test-helpers.js';
import type { LoadedGatewayConfig } from './config/index.js';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  auditEvents,
  type FixtureTool,
  resultText,
  tempDir,
  toolsFileServer,
  until,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// pin.newTools: ask (a tool that is not pinned yet asks the client's user before every
// call), and pins with the verdict `verified` (annotations trusted on an untrusted server),
// over the tools-file fixture server and an SDK client that answers elicitation.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const READ: FixtureTool['annotations'] = { readOnlyHint: true, openWorldHint: false };
const NOTIFY: FixtureTool = {
  name: 'notify_changed',
  description: 'Tells clients the tool list changed.',
  annotations: READ,
};

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

/** A client that answers approval forms with `answers`, in turn (then Deny), recording them. */
const client = async (gateway: Gateway, answers: ElicitResult[] = []): Promise<TestClient> => {
  const queue = [...answers];
  const connected = await connectInMemory(gateway.toolServer, {
    answer: (_params: ElicitRequestFormParams) =>
      queue.shift() ?? { action: 'accept', content: { decision: 'deny' } },
  });
  cleanups.push(() => connected.close());
  return connected;
};

type CallResult = { content: unknown[]; isError?: boolean; _meta?: Record<string, unknown> };

const callTool = async (c: TestClient, name: string) =>
  (await c.client.callTool({ name, arguments: {} })) as CallResult;

const allow = (decision: string): ElicitResult => ({ action: 'accept', content: { decision } });

const setVerdicts = async (
  config: LoadedGatewayConfig,
  server: string,
  verdicts: Record<string, PinVerdict | undefined>,
): Promise<void> => {
  const lock = await readLockFile(config.pin.path);
  const pinned = lock.servers[server];
  if (pinned === undefined) throw new Error(`no pins of ${server}`);
  const tools = { ...pinned.tools };
  for (const [name, verdict] of Object.entries(verdicts)) {
    const pin = tools[name];
    if (pin === undefined) throw new Error(`no pin of ${name}`);
    const { verdict: _old, ...rest } = pin;
    tools[name] = verdict === undefined ? rest : { ...rest, verdict };
  }
  await writeLockFile(config.pin.path, {
    ...lock,
    servers: { ...lock.servers, [server]: { tools } },
  });
};

describe('pin.newTools: ask', () => {
  it.each(['yolo', 'auto'] as const)(
    'in mode %s, a tool added later is listed, and each call asks the user, naming it as not pinned, until it is pinned',
    async (mode) => {
      const { dir, remove } = await tempDir();
      cleanups.push(remove);
      const lookup: FixtureTool = { name: 'lookup', description: 'Reads.', annotations: READ };
      const fixture = await toolsFileServer(dir, 'fixture', [lookup, NOTIFY]);
      const config = await writeConfig(dir, {
        servers: { fixture: { ...fixture.entry, trusted: true } },
        pin: { newTools: 'ask' },
        mode,
      });
      await pinGateway({ config });
      const gateway = await start(config);

      // A read-only tool on a trusted server: it would run at once if it were pinned.
      await fixture.setTools([
        lookup,
        NOTIFY,
        { name: 'added', description: 'New.', annotations: READ },
      ]);
      expect(
        (await gateway.runtime.execute([{ id: 'n', name: 'notify_changed' }]))[0]?.status,
      ).toBe('ok');
      await until(() => gateway.runtime.registry.resolve('added') !== undefined);
      expect(gateway.blockedTools().size).toBe(0);
      // Its annotations are not trusted while it is not pinned.
      expect(gateway.runtime.registry.resolve('added')).toMatchObject({
        trusted: false,
        class: 'destructive',
      });

      const c = await client(gateway, [
        { action: 'decline' },
        allow('allow_once'),
        allow('allow_session'),
      ]);
      expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain('added');

      const declined = await callTool(c, 'added');
      expect(declined.isError).toBe(true);
      expect(declined._meta?.['dev.hintgate/code']).toBe('denied');
      expect(c.forms).toHaveLength(1);
      expect(c.forms[0]?.message).toContain('Allow the tool call "added"?');
      expect(c.forms[0]?.message).toContain('tool "added" of server "fixture" is not pinned yet');
      expect(c.forms[0]?.message).toContain('hintgate pin');

      const accepted = await callTool(c, 'added');
      expect(accepted.isError).toBeFalsy();
      expect(resultText(accepted)).toBe('fixture added {}');
      expect(c.forms).toHaveLength(2);

      // Allowed for the session: the next call of this client runs without asking.
      expect((await callTool(c, 'added')).isError).toBeFalsy();
      expect((await callTool(c, 'added')).isError).toBeFalsy();
      expect(c.forms).toHaveLength(3);

      // The pinned tool never asks.
      expect(resultText(await callTool(c, 'lookup'))).toBe('fixture lookup {}');
      expect(c.forms).toHaveLength(3);

      const events = await auditEvents(config.audit.path);
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'approval.denied', tool: 'added', origin: 'fixture' }),
      );
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'tool.changed',
          tool: 'added',
          decision: 'ask',
          reason: 'pin-new (low)',
        }),
      );

      // Reviewed and pinned: it runs without asking, with its annotations trusted again.
      await pinGateway({ config });
      await gateway.reloadPins();
      expect(gateway.runtime.registry.resolve('added')).toMatchObject({
        trusted: true,
        class: 'read',
      });
      const other = await client(gateway);
      expect(resultText(await callTool(other, 'added'))).toBe('fixture added {}');
      expect(other.forms).toHaveLength(0);
    },
  );

  it('offers no "always allow" for a tool that is not pinned; a session approval is not written to the approvals file and is asked again in another session', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'fresh', description: 'New.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
      pin: { newTools: 'ask' },
      mode: 'yolo',
    });
    const gateway = await start(config);

    const first = await client(gateway, [allow('allow_session')]);
    expect((await callTool(first, 'fresh')).isError).toBeFalsy();
    expect((await callTool(first, 'fresh')).isError).toBeFalsy();
    expect(first.forms).toHaveLength(1);
    // The form does not offer what would not hold: Always allow.
    const decision = first.forms[0]?.requestedSchema.properties.decision as
      | { oneOf: { const: string }[] }
      | undefined;
    const offered = decision?.oneOf.map((choice) => choice.const);
    expect(offered).toEqual(['allow_once', 'allow_session', 'deny']);
    expect(await readFile(config.approvals.path, 'utf8').catch(() => '')).not.toContain('fresh');

    const second = await client(gateway, [allow('allow_once')]);
    expect((await callTool(second, 'fresh')).isError).toBeFalsy();
    expect(second.forms).toHaveLength(1);
  });

  it('asks a 2026-07-28 client through input_required, and runs the call once it approves', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'fresh', description: 'New.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
      pin: { newTools: 'ask' },
      mode: 'yolo',
    });
    const gateway = await start(config);
    const handler = createMcpHttpHandler({ toolServer: gateway.toolServer });
    cleanups.push(() => handler.close());
    const answers = [{ action: 'decline' } as ElicitResult, allow('allow_once')];
    const modern = await connectOverFetch(handler, 'modern', {
      answer: () => answers.shift() ?? { action: 'decline' },
    });
    cleanups.push(() => modern.close());

    expect((await callTool(modern, 'fresh')).isError).toBe(true);
    expect(resultText(await callTool(modern, 'fresh'))).toBe('fixture fresh {}');
    expect(modern.forms).toHaveLength(2);
    expect(modern.forms[0]?.message).toContain(
      'tool "fresh" of server "fixture" is not pinned yet',
    );
  });

  it('still holds back a tool whose definition changed since it was pinned', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const lookup: FixtureTool = { name: 'lookup', description: 'Reads.', annotations: READ };
    const fixture = await toolsFileServer(dir, 'fixture', [lookup]);
    const config = await writeConfig(dir, {
      servers: { fixture: { ...fixture.entry, trusted: true } },
      pin: { newTools: 'ask' },
      mode: 'yolo',
    });
    await pinGateway({ config });
    await fixture.setTools([{ ...lookup, description: 'Reads, and sends it away.' }]);
    const gateway = await start(config);
    const c = await client(gateway, [allow('allow_once')]);
    expect((await c.client.listTools()).tools).toEqual([]);
    const held = await callTool(c, 'lookup');
    expect(held.isError).toBe(true);
    expect(resultText(held)).toContain('changed since it was pinned');
    expect(c.forms).toHaveLength(0);
  });
});

describe('pins with the verdict verified', () => {
  it('trust the annotations of those tools of an untrusted server, and only while the verdict and the definition stay', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const a: FixtureTool = { name: 'a', description: 'Reads A.', annotations: READ };
    const b: FixtureTool = { name: 'b', description: 'Reads B.', annotations: READ };
    const v: FixtureTool = { name: 'v', description: 'Reads V.', annotations: READ };
    const fixture = await toolsFileServer(dir, 'fixture', [a, b, v, NOTIFY]);
    const config = await writeConfig(dir, {
      servers: {
        fixture: {
          ...fixture.entry,
          tools: { notify_changed: { annotations: { readOnlyHint: true } } },
        },
      },
      mode: 'auto',
    });
    await pinGateway({ config });
    await setVerdicts(config, 'fixture', { a: 'verified', v: 'violation' });
    const gateway = await start(config);
    const c = await client(gateway, [allow('allow_once'), allow('allow_once')]);

    // a's read-only claim is used: auto mode runs a read without asking.
    expect(resultText(await callTool(c, 'a'))).toBe('fixture a {}');
    expect(c.forms).toHaveLength(0);
    // b (no verdict) and v (a violation) count as destructive, as the server is not trusted.
    expect(resultText(await callTool(c, 'b'))).toBe('fixture b {}');
    expect(c.forms).toHaveLength(1);
    expect(c.forms[0]?.message).toContain('Allow the tool call "b"?');
    expect(resultText(await callTool(c, 'v'))).toBe('fixture v {}');
    expect(c.forms).toHaveLength(2);
    const [listedA] = (await c.client.listTools()).tools.filter((tool) => tool.name === 'a');
    expect(listedA?._meta?.['dev.hintgate/trusted']).toBe(true);

    // The verdict is gone from the pin file: so is the trust.
    await setVerdicts(config, 'fixture', { a: undefined });
    await gateway.reloadPins();
    const asked = await callTool(c, 'a');
    expect(asked.isError).toBe(true);
    expect(c.forms).toHaveLength(3);
    expect(c.forms[2]?.message).toContain('Allow the tool call "a"?');

    // Verified again, then the server changes the tool: held back, and not trusted.
    await setVerdicts(config, 'fixture', { a: 'verified' });
    await gateway.reloadPins();
    expect(gateway.runtime.registry.resolve('a')?.trusted).toBe(true);
    await fixture.setTools([{ ...a, description: 'Reads A, and more.' }, b, v, NOTIFY]);
    await gateway.runtime.execute([{ id: 'n', name: 'notify_changed' }]);
    await until(() => gateway.blockedTools().has('a'));
    expect(gateway.runtime.registry.resolve('a')?.trusted).toBe(false);
    expect((await callTool(c, 'a')).isError).toBe(true);
  });
});
