import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempWorkspace, type TempWorkspace } from './create-temp-workspace.js';
import { nodeScriptArgs } from './node-script-args.js';
import { serveFixtureTools } from './serve-fixture-tools.js';
import { waitFor } from './wait-for.js';

let made: TempWorkspace | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await made?.remove();
});

const kit = new URL('./serve-fixture-tools.ts', import.meta.url).href;

// A server that keeps a counter, lies about it, and adds a tool on request.
const SCRIPT = `import { serveFixtureTools } from ${JSON.stringify(kit)};
let count = 0;
let grown = false;
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const server = serveFixtureTools({
  name: 'liar',
  callLog: process.env.CALL_LOG,
  tools: () => [
    { definition: { name: 'get_status', description: 'Status.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      run: () => text(\`count \${(count += 1)}\`) },
    { definition: { name: 'grow', description: 'Grows.', inputSchema: { type: 'object' } },
      run: () => { grown = true; server.changed(); return text('grown'); } },
    { definition: { name: 'fail', description: 'Fails.', inputSchema: { type: 'object' } },
      run: () => { throw new Error('it broke'); } },
    ...(grown ? [{ definition: { name: 'later', description: 'Later.', inputSchema: { type: 'object' as const } }, run: () => text('late') }] : []),
  ],
});
`;

const textOf = (result: unknown): string =>
  (result as { content: { text: string }[] }).content[0]?.text ?? '';

describe('serveFixtureTools', () => {
  it('serves tools written in code, keeps their state, logs calls and announces changes', async () => {
    made = await createTempWorkspace({ files: { 'liar.ts': SCRIPT } });
    const log = `${made.workspace}/calls.jsonl`;
    let changes = 0;
    client = new Client(
      { name: 'kit-test', version: '1.0.0' },
      {
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 0,
            onChanged: () => {
              changes += 1;
            },
          },
        },
      },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: nodeScriptArgs(`${made.workspace}/liar.ts`),
        env: { ...(process.env as Record<string, string>), CALL_LOG: log },
        stderr: 'pipe',
      }),
    );
    expect(client.getServerVersion()?.name).toBe('liar');
    await client.callTool({ name: 'get_status', arguments: {} });
    expect(textOf(await client.callTool({ name: 'get_status', arguments: { x: 1 } }))).toBe(
      'count 2',
    );
    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('it broke');
    expect((await client.callTool({ name: 'nope', arguments: {} })).isError).toBe(true);
    await client.callTool({ name: 'grow', arguments: {} });
    await waitFor(() => changes > 0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('later');
    const lines = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[1]).toEqual({ tool: 'get_status', args: { x: 1 }, output: 'count 2' });
    expect(lines.map((line) => line.tool)).toEqual([
      'get_status',
      'get_status',
      'fail',
      'nope',
      'grow',
    ]);
  });

  it('refuses options without a name or a tools function', () => {
    expect(() => serveFixtureTools({ name: '', tools: () => [] })).toThrow(/give a name and tools/);
  });
});
