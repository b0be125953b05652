import { afterEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import {
  createFixtureServer,
  createTempWorkspace,
  type TempWorkspace,
} from '../../testing/index.js';
import { listMcpServerTools } from './list-mcp-server-tools.js';
import { MAX_TOOL_PAGES } from './list-tool-pages.js';
import { type ConnectMcpServerOptions, checkMcpServerOptions } from './mcp-server-options.js';
import { openMcpClient } from './open-mcp-client.js';
import { remoteToolListings } from './remote-tool-listing.js';
import { StderrTail } from './stderr-tail.js';

const ignore = (): void => {};

/** Tools with fields the MCP client's schema drops or keeps, and one it must repair. */
const ODD_TOOLS = [
  {
    name: 'plain',
    description: 'A plain tool.',
    inputSchema: { type: 'object', properties: { q: { type: 'string', extra: 1 } }, foo: 2 },
  },
  {
    name: 'annotated',
    title: 'Annotated',
    description: 'Hints, custom and unknown annotation keys.',
    annotations: { readOnlyHint: true, madeUpHint: true, custom: { owner: 'ops' } },
    _meta: { 'dev.hintgate/readOnlyHint': true, other: 1 },
    outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
  },
  {
    name: 'extras',
    description: 'Top-level fields the schema does not know.',
    unknownTop: { a: 1 },
    icons: [{ src: 'https://example.test/i.png', extra: true }],
    execution: { taskSupport: 'optional', extra: 1 },
  },
  {
    name: 'repaired',
    description: 'An annotation of the wrong type, left out.',
    annotations: { destructiveHint: 'yes', idempotentHint: true },
  },
  // Own __proto__ keys (as JSON.parse makes them), which the client's parse leaves out.
  JSON.parse(
    '{"name":"proto","description":"Keys named __proto__.","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"number"}}},"_meta":{"__proto__":{"x":1},"k":2}}',
  ),
  { name: 'last', description: 'The last tool.' },
];

/** Listings without `extras`, which are not pinned (see listToolPages). */
const pinnable = (listings: ReturnType<typeof remoteToolListings>) =>
  listings.map(({ extras: _extras, ...rest }) => rest);

describe('listToolPages (a connection that keeps no listing)', () => {
  let temp: TempWorkspace | undefined;
  afterEach(async () => {
    await temp?.remove();
    temp = undefined;
  });

  const serve = async (pageSize: number, tools: readonly Record<string, unknown>[]) => {
    temp = await createTempWorkspace();
    const server = await createFixtureServer({
      dir: temp.workspace,
      name: 'odd',
      // The fixture's type names the usual fields; these tools carry odd ones on purpose.
      tools: tools as unknown as Parameters<typeof createFixtureServer>[0]['tools'],
      pageSize,
    });
    const entry = { name: 'odd', registry: createRegistry({ env: {} }), ...server.entry };
    return entry as unknown as ConnectMcpServerOptions;
  };

  it('reads every page, and lists what the client parse would for everything pinned', async () => {
    const options = await serve(2, ODD_TOOLS);
    const listed = await listMcpServerTools(options);
    await listed.closed;
    const lean = listed.tools;
    expect(lean.map((tool) => tool.name)).toEqual(ODD_TOOLS.map((tool) => tool.name));

    // The same server read through the client's own listTools (and its parse of each tool).
    const checked = checkMcpServerOptions(options);
    const opened = await openMcpClient({
      origin: checked.name,
      target: checked.target,
      era: checked.era,
      connectTimeoutMs: checked.connectTimeoutMs,
      stderr: new StderrTail(),
      signal: new AbortController().signal,
      onClose: ignore,
      onToolsChanged: ignore,
      onToolsError: ignore,
      onNotification: ignore,
    });
    await opened.client.close();
    expect(pinnable(remoteToolListings(lean, 'odd'))).toEqual(
      pinnable(remoteToolListings(opened.tools, 'odd')),
    );
    // custom is capped and put back on both ways; an unknown hint is not a hint.
    const annotated = remoteToolListings(lean, 'odd').find((l) => l.name === 'annotated');
    expect(annotated?.annotations).toEqual({ readOnlyHint: true, custom: { owner: 'ops' } });
  });

  it(`refuses a list that pages past ${MAX_TOOL_PAGES} pages`, async () => {
    const many = Array.from({ length: MAX_TOOL_PAGES + 1 }, (_, i) => ({
      name: `t${i}`,
      description: `Tool ${i}.`,
    }));
    const options = await serve(1, many);
    await expect(listMcpServerTools(options)).rejects.toThrow(
      new RegExp(`did not end after ${MAX_TOOL_PAGES} pages`),
    );
  });
});
