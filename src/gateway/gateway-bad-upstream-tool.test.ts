import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { nodeScriptArgs } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import { REPO_ROOT, resultText, tempDir, until, writeConfig } from './gateway.test-helpers.js';

// A server (fixtures/raw-json-rpc-server.ts, raw JSON-RPC so that nothing reshapes its list)
// lists hostile tools among good ones: the good ones are served, each bad one is reported.

const FIXTURE = fileURLToPath(new URL('./fixtures/raw-json-rpc-server.ts', import.meta.url));

const BAD_TOOLS = [
  {
    name: 'backreference',
    description: 'Its schema has a pattern RE2 cannot run.',
    inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '(a)\\1' } } },
  },
  {
    name: 'bad_limit',
    description: 'Declares a limit that is no limit, beside a schema that does not compile.',
    inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '(a)\\1' } } },
    annotations: { custom: { rateLimit: 5 } },
  },
];

// Tools the MCP client's own schema refuses, which would fail the whole tools/list page.
const UNREADABLE_TOOLS = [
  { name: 'shapeless', description: 'Arguments are a string.', inputSchema: { type: 'string' } },
  { name: 'numbered', description: 42, inputSchema: { type: 'object' } },
  {
    name: 'iconic',
    description: 'Bad icons and a hint that is no boolean.',
    icons: 'icon.png',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: 'yes', idempotentHint: true },
  },
  'not a tool',
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('gateway over a server that lists a bad tool among good ones', () => {
  it('serves the good tools and reports each bad one', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const config = await writeConfig(dir, {
      mode: 'yolo',
      pin: { newTools: 'allow' },
      servers: {
        records: {
          command: process.execPath,
          args: nodeScriptArgs(FIXTURE),
          cwd: REPO_ROOT,
          trusted: true,
          env: { FIXTURE_EXTRA_TOOLS: JSON.stringify(BAD_TOOLS) },
        },
      },
    });
    const notices: string[] = [];
    const errors: Error[] = [];
    const gateway = await createGateway({
      config,
      onNotice: (line) => notices.push(line),
      onError: (error) => errors.push(error),
      watchPins: false,
    });
    cleanups.push(() => gateway.close());
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());

    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'backreference',
      'busy',
      'crash_once_read',
      'search',
    ]);
    const search = await client.client.callTool({ name: 'search', arguments: { q: 'x' } });
    expect(resultText(search as { content: unknown[] })).toBe('found 3 records');

    await until(() => notices.some((line) => line.includes('"bad_limit"')));
    expect(notices).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /tool "bad_limit" of MCP server "records" cannot be registered: .*rateLimit must be/,
        ),
      ]),
    );
    expect(errors).toEqual([]);
  }, 30_000);

  it('serves the tools of a page the MCP client would refuse for one tool, repairing what it can', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const config = await writeConfig(dir, {
      mode: 'yolo',
      pin: { newTools: 'allow' },
      servers: {
        records: {
          command: process.execPath,
          args: nodeScriptArgs(FIXTURE),
          cwd: REPO_ROOT,
          trusted: true,
          env: { FIXTURE_EXTRA_TOOLS: JSON.stringify(UNREADABLE_TOOLS) },
        },
      },
    });
    const notices: string[] = [];
    const errors: Error[] = [];
    const gateway = await createGateway({
      config,
      onNotice: (line) => notices.push(line),
      onError: (error) => errors.push(error),
      watchPins: false,
    });
    cleanups.push(() => gateway.close());
    const client = await connectInMemory(gateway.toolServer);
    cleanups.push(() => client.close());

    // The downstream client reads the whole list: nothing unreadable is passed on.
    const { tools } = await client.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'busy',
      'crash_once_read',
      'iconic',
      'numbered',
      'search',
    ]);
    const iconic = tools.find((tool) => tool.name === 'iconic');
    expect(iconic?.icons).toBeUndefined();
    expect(iconic?.annotations).toMatchObject({ idempotentHint: true });
    expect(iconic?.annotations?.readOnlyHint).not.toBe(true);
    expect(tools.find((tool) => tool.name === 'numbered')?.description).toBe('numbered');
    const search = await client.client.callTool({ name: 'search', arguments: { q: 'x' } });
    expect(resultText(search as { content: unknown[] })).toBe('found 3 records');

    await until(() => notices.some((line) => line.includes('"shapeless"')));
    expect(notices).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /tool "shapeless" of MCP server "records" cannot be registered: the MCP client cannot read it \(inputSchema\.type: /,
        ),
        expect.stringMatching(
          /tool "numbered" of MCP server "records" is listed with fields the MCP client cannot read \(description: .*\); it is served without them/,
        ),
        expect.stringMatching(/tool "iconic" .*\(icons: .*; annotations\.readOnlyHint: /),
        expect.stringMatching(
          /entry 6 of a tools\/list page of MCP server "records" cannot be registered: the MCP client cannot read it \(the entry is not a JSON object\)/,
        ),
      ]),
    );
    expect(errors).toEqual([]);
  }, 30_000);
});
