import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HintgateError } from '../../errors/index.js';
import { createRegistry, type ToolRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import { nextEvent, processAlive, waitFor } from '../../testing/index.js';
import type { CallResult } from '../../tool/index.js';
import { connectMcpServer } from './connect-mcp-server.js';
import type { McpServerConnection } from './connection-events.js';
import { stdioFixture } from './fixtures/fixtures.test-helpers.js';

const textOf = (result: CallResult | undefined): string => {
  const block = result?.content[0];
  return block?.type === 'text' ? block.text : '';
};

// The default over stdio is the 2025 handshake, whose tools/call skips the SDK's request
// layer (raw-tool-calls.ts); era auto lands on 2026-07-28 with this fixture and goes
// through the SDK. Every call behaves the same on both.
describe.each([
  { era: 'auto', negotiated: 'modern' },
  { era: undefined, negotiated: 'legacy' },
] as const)('connectMcpServer over stdio (era $era: $negotiated)', ({ era, negotiated }) => {
  let registry: ToolRegistry;
  let connection: McpServerConnection;

  beforeAll(async () => {
    registry = createRegistry();
    connection = await connectMcpServer({
      name: 'fixture',
      registry,
      ...(era === undefined ? {} : { era }),
      ...stdioFixture(),
    });
  });
  afterAll(() => connection.close());

  it('reports the server, the negotiated era and the listed tools', () => {
    expect(connection.status).toBe('ready');
    expect(connection.serverInfo).toMatchObject({ name: 'hintgate-fixture', version: '1.0.0' });
    expect(connection.protocolEra).toBe(negotiated);
    expect(connection.tools.map((t) => t.name)).toContain('lookup');
    expect(registry.origins()).toEqual([
      { name: 'fixture', layer: 'project', trusted: false, toolCount: connection.tools.length },
    ]);
  });

  it('lists every annotation style faithfully: absent stays absent, false stays false', () => {
    const listing = new Map(
      createRuntime({ registry })
        .listTools()
        .map((t) => [t.name, t]),
    );
    expect(listing.get('plain')).not.toHaveProperty('annotations');
    expect(listing.get('explicit_false')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(listing.get('lookup')).toEqual({
      name: 'lookup',
      title: 'Look up a record',
      description: 'Reads one record; changes nothing.',
      inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
      outputSchema: {
        type: 'object',
        properties: { found: { type: 'boolean' }, key: { type: 'string' } },
        required: ['found'],
      },
      annotations: {
        title: 'Lookup',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      _meta: { 'com.example/owner': 'fixtures', 'dev.hintgate/resources': ['record:{key}'] },
    });
  });

  it('keeps schemas the validator rejects as listed, and reports what it does instead', async () => {
    const listing = new Map(
      createRuntime({ registry })
        .listTools()
        .map((t) => [t.name, t]),
    );
    expect(listing.get('odd_schema')?.inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'strang' } },
    });
    expect(listing.get('draft7')?.inputSchema).toHaveProperty(
      '$schema',
      'http://json-schema.org/draft-07/schema#',
    );
    expect(connection.problems.map((p) => [p.name, p.skipped])).toEqual([
      ['odd_schema', false],
      ['draft7', false],
    ]);
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const [odd, draft7] = await runtime.execute([
      { id: 'o', name: 'odd_schema', arguments: { n: 5 } },
      { id: 'd', name: 'draft7', arguments: { count: 'three' } },
    ]);
    expect(odd?.status).toBe('ok');
    expect(textOf(odd)).toBe('odd_schema {"n":5}');
    expect(draft7?.error?.code).toBe('invalid_arguments');
    expect(draft7?.error?.message).toContain('count: must be number');
  });

  it("fails a result whose structured content breaks the tool's output schema", async () => {
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const [mismatch] = await runtime.execute([
      { id: 'm', name: 'lookup', arguments: { key: 'mismatch' } },
    ]);
    expect(mismatch?.status).toBe('error');
    expect(mismatch?.error?.message).toMatch(/output schema/i);
  });

  it('returns the server results through the runtime, tool errors included', async () => {
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const [lookup, fails, plain] = await runtime.execute([
      { id: 'l', name: 'lookup', arguments: { key: 'k1' } },
      { id: 'f', name: 'fails' },
      { id: 'p', name: 'plain', arguments: { text: 'hi' } },
    ]);
    expect(lookup).toMatchObject({
      status: 'ok',
      structuredContent: { found: true, key: 'k1' },
      content: [{ type: 'text', text: '{"found":true,"key":"k1"}' }],
    });
    expect(fails).toMatchObject({
      status: 'error',
      error: { code: 'tool_error', message: 'lookup failed: no such record' },
    });
    expect(textOf(plain)).toBe('plain {"text":"hi"}');
  });

  it('plans an untrusted read-only tool with the spec defaults, and a trusted one as a read', async () => {
    const untrusted = await createRuntime({ registry }).plan([
      { id: 'a', name: 'lookup', arguments: { key: 'x' } },
    ]);
    expect(untrusted[0]?.class).toBe('destructive');
    const other = createRegistry();
    const trustedConnection = await connectMcpServer({
      name: 'vouched',
      registry: other,
      trusted: true,
      era: 'legacy',
      ...stdioFixture(),
    });
    try {
      const plan = await createRuntime({ registry: other }).plan([
        { id: 'a', name: 'lookup', arguments: { key: 'x' } },
      ]);
      expect(plan[0]?.class).toBe('read');
      expect(trustedConnection.protocolEra).toBe('legacy');
    } finally {
      await trustedConnection.close();
    }
  });

  it('cancels a call on the server when the runtime times it out', async () => {
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const [slow] = await runtime.execute([
      { id: 's', name: 'slow', arguments: { ms: 10_000 }, timeoutMs: 200 },
    ]);
    expect(slow?.status).toBe('timeout');
    expect(slow?.runMs).toBeLessThan(2_000);
    const reasons = await waitFor(async () => {
      const [seen] = await runtime.execute([{ id: 'q', name: 'aborted_calls' }]);
      const list = JSON.parse(textOf(seen)) as string[];
      return list.length > 0 ? list : undefined;
    });
    expect(reasons[0]).toContain('timed out after 200 ms');
  });

  it('cancels a call on the server when the caller aborts its batch', async () => {
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const [before] = await runtime.execute([{ id: 'b', name: 'aborted_calls' }]);
    const seenBefore = (JSON.parse(textOf(before)) as string[]).length;
    const batch = new AbortController();
    const running = runtime.execute([{ id: 'c', name: 'slow', arguments: { ms: 10_000 } }], {
      signal: batch.signal,
    });
    setTimeout(() => batch.abort(new Error('the caller gave up')), 100);
    const [slow] = await running;
    expect(slow?.status).toBe('cancelled');
    const reasons = await waitFor(async () => {
      const [seen] = await runtime.execute([{ id: 'q', name: 'aborted_calls' }]);
      const list = JSON.parse(textOf(seen)) as string[];
      return list.length > seenBefore ? list : undefined;
    });
    expect(reasons[seenBefore]).toContain('the caller gave up');
  });
});

describe.each(['auto', 'legacy'] as const)('tools/list_changed (era %s)', (era) => {
  it('refreshes the registered tools', async () => {
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'changing',
      registry,
      era,
      ...stdioFixture(),
    });
    try {
      const runtime = createRuntime({ registry, mode: 'yolo' });
      expect(registry.resolve('added_later')).toBeUndefined();
      const changed = nextEvent(connection, 'change');
      const [added] = await runtime.execute([{ id: 'a', name: 'add_tool' }]);
      expect(added?.status).toBe('ok');
      const event = await changed;
      expect(event.tools.map((t) => t.name)).toContain('added_later');
      expect(connection.tools.map((t) => t.name)).toContain('added_later');
      expect(registry.resolve('added_later')?.claimed).toEqual({ readOnlyHint: true });
      const [later] = await runtime.execute([{ id: 'l', name: 'added_later' }]);
      expect(later?.status).toBe('ok');
    } finally {
      await connection.close();
    }
  });
});

describe('close and failures to start', () => {
  it('close() stops the server process and removes its tools', async () => {
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'closing',
      registry,
      era: 'legacy',
      ...stdioFixture(),
    });
    const [pid] = await createRuntime({ registry, mode: 'yolo' }).execute([
      { id: 'p', name: 'pid' },
    ]);
    const serverPid = Number(textOf(pid));
    const closed = nextEvent(connection, 'status');
    await connection.close();
    expect((await closed).status).toBe('closed');
    expect(connection.status).toBe('closed');
    expect(registry.origins()).toEqual([]);
    await waitFor(() => (processAlive(serverPid) ? undefined : true));
  });

  it('rejects with the command when it does not exist', async () => {
    const registry = createRegistry();
    const failure = connectMcpServer({
      name: 'ghost',
      registry,
      command: 'hintgate-no-such-server',
    });
    await expect(failure).rejects.toBeInstanceOf(HintgateError);
    await expect(failure).rejects.toMatchObject({ code: 'mcp_connect_failed' });
    await expect(failure).rejects.toThrow(
      /MCP server "ghost" \(command "hintgate-no-such-server"\).*ENOENT.*not found/,
    );
    expect(registry.origins()).toEqual([]);
  });

  it("rejects with the tail of the server's stderr when it exits at start", async () => {
    const registry = createRegistry();
    const fixture = stdioFixture({ FIXTURE_REFUSE_IF_EXISTS: process.execPath });
    const failure = connectMcpServer({ name: 'refuses', registry, ...fixture });
    await expect(failure).rejects.toMatchObject({ code: 'mcp_connect_failed' });
    await expect(failure).rejects.toThrow(
      /fixture-server-process\.(?:ts|mjs).*Its stderr ended with:\nfixture: refusing to start because the marker file exists/s,
    );
  });
});
