import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureServer } from './create-fixture-server.js';
import { createTempWorkspace, type TempWorkspace } from './create-temp-workspace.js';
import { fixtureServerEntry } from './fixture-server-entry.js';
import type { FixtureTool } from './index.js';
import { startFixtureHttpServer } from './start-fixture-http-server.js';
import { waitFor } from './wait-for.js';

let made: TempWorkspace | undefined;
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  await made?.remove();
});

const TOOLS: FixtureTool[] = [
  {
    name: 'lookup',
    description: 'Reads a record.',
    annotations: { readOnlyHint: true },
    answers: [
      { when: { key: 'gone' }, text: 'no record {key}', isError: true },
      { structuredContent: { found: true, key: '{key}' } },
    ],
  },
  {
    name: 'export',
    description: 'Exports slowly.',
    answers: [{ delayMs: 60_000, delayMsArgument: 'ms', progress: 2, text: 'exported' }],
  },
  {
    name: 'grow',
    description: 'Adds a tool.',
    answers: [{ run: 'add_tools', tools: [{ name: 'later', description: 'Later.' }] }],
  },
  { name: 'who', description: 'Who calls.', answers: [{ run: 'header', header: 'x-caller' }] },
];

const text = (result: unknown): string =>
  ((result as { content: { text: string }[] }).content[0]?.text ?? '') as string;

const stdioClient = async (entry: {
  command: string;
  args: string[];
  env: Record<string, string>;
}) => {
  const client = new Client({ name: 'answers-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      ...entry,
      env: { ...(process.env as Record<string, string>), ...entry.env },
      stderr: 'pipe',
    }),
  );
  closing.push(() => client.close());
  return client;
};

describe('the fixture server answers', () => {
  it('as the first matching answer says: text with arguments, tool errors, structured content', async () => {
    made = await createTempWorkspace();
    const server = await createFixtureServer({
      dir: made.workspace,
      name: 'records',
      tools: TOOLS,
    });
    const client = await stdioClient(server.entry as never);
    expect(
      (await client.listTools()).tools.map((tool) => Object.keys(tool).includes('answers')),
    ).toEqual([false, false, false, false]);
    const gone = await client.callTool({ name: 'lookup', arguments: { key: 'gone' } });
    expect(gone.isError).toBe(true);
    expect(text(gone)).toBe('no record gone');
    const found = await client.callTool({ name: 'lookup', arguments: { key: 'k7' } });
    expect(found.structuredContent).toEqual({ found: true, key: 'k7' });
    expect(text(found)).toBe('{"found":true,"key":"k7"}');
    const echo = await client.callTool({ name: 'unlisted', arguments: { a: 1 } });
    expect(text(echo)).toBe('records unlisted {"a":1}');
  });

  it('after progress and a delay a cancellation cuts short, which cancelled_calls reports', async () => {
    made = await createTempWorkspace();
    const server = await createFixtureServer({ dir: made.workspace, name: 'slow', tools: TOOLS });
    const client = await stdioClient(server.entry as never);
    const steps: number[] = [];
    const quick = await client.callTool(
      { name: 'export', arguments: { ms: 100 } },
      { onprogress: (progress) => steps.push(progress.progress) },
    );
    expect(text(quick)).toBe('exported');
    expect(steps).toEqual([1, 2]);
    const controller = new AbortController();
    const long = client.callTool({ name: 'export', arguments: {} }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort('changed my mind');
    await expect(long).rejects.toThrow();
    const reasons = await waitFor(async () => {
      const listed = JSON.parse(
        text(await client.callTool({ name: 'cancelled_calls', arguments: {} })),
      );
      return (listed as string[]).length > 0 ? (listed as string[]) : undefined;
    });
    expect(reasons[0]).toContain('changed my mind');
  });

  it('adds tools and announces them; with an empty echo prefix the echo starts with the tool', async () => {
    made = await createTempWorkspace();
    const server = await createFixtureServer({
      dir: made.workspace,
      name: 'growing',
      tools: TOOLS,
      echoPrefix: '',
    });
    let changes = 0;
    const client = new Client(
      { name: 'answers-test', version: '1.0.0' },
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
    const entry = server.entry as { command: string; args: string[]; env: Record<string, string> };
    await client.connect(
      new StdioClientTransport({
        ...entry,
        env: { ...(process.env as Record<string, string>), ...entry.env },
      }),
    );
    closing.push(() => client.close());
    expect(text(await client.callTool({ name: 'grow', arguments: {} }))).toBe('added');
    await waitFor(() => changes > 0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('later');
    expect(text(await client.callTool({ name: 'later', arguments: { x: 1 } }))).toBe(
      'later {"x":1}',
    );
  });

  it('writes raw lines and hand-made responses to its stdout', async () => {
    made = await createTempWorkspace();
    const server = await createFixtureServer({
      dir: made.workspace,
      name: 'raw',
      tools: [
        {
          name: 'hand_made',
          description: 'Answers by hand.',
          answers: [
            {
              raw: [
                '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"raw line"}}',
              ],
              rawResponse: { result: { content: [{ type: 'text', text: 'hand-made' }] } },
            },
          ],
        },
      ],
    });
    const logged: unknown[] = [];
    const client = await stdioClient(server.entry as never);
    client.setNotificationHandler('notifications/message', (notification) => {
      logged.push(notification.params.data);
    });
    expect(text(await client.callTool({ name: 'hand_made', arguments: {} }))).toBe('hand-made');
    await waitFor(() => logged.length > 0);
    expect(logged).toEqual(['raw line']);
  });

  it('refuses to start while the marker exists, and refuses answers it cannot run', async () => {
    made = await createTempWorkspace({ files: { 'tools.json': '[]', marker: '' } });
    const entry = fixtureServerEntry({
      name: 'refuser',
      toolsFile: `${made.workspace}/tools.json`,
      refuseWhileExists: `${made.workspace}/marker`,
    });
    await expect(stdioClient(entry)).rejects.toThrow();
    await expect(
      createFixtureServer({
        dir: made.workspace,
        name: 'bad',
        tools: [{ name: 'x', description: 'X.', answers: [{ run: 'explode' as 'pid' }] }],
      }),
    ).rejects.toThrow(/answers\[0\]\.run is "explode"; use one of pid, crash/);
    expect(() => fixtureServerEntry({ name: 'no files', toolsFile: [] })).toThrow(/use 1-64 of/);
    expect(() => fixtureServerEntry({ name: 'none', toolsFile: [] })).toThrow(
      /toolsFile must be a file path or a non-empty list/,
    );
  });
});

describe('startFixtureHttpServer', () => {
  it('serves the same tools over Streamable HTTP, behind a token, and answers a request header', async () => {
    made = await createTempWorkspace();
    const stdio = await createFixtureServer({ dir: made.workspace, name: 'web', tools: TOOLS });
    const server = await startFixtureHttpServer({
      name: 'web',
      toolsFile: stdio.toolsFile,
      token: 'fixture-token',
    });
    closing.push(() => server.stop());
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    const refused = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'answers-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { 'x-fixture-token': 'fixture-token', 'x-caller': 'ada' } },
      }),
    );
    closing.unshift(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'lookup',
      'export',
      'grow',
      'who',
    ]);
    expect(text(await client.callTool({ name: 'who', arguments: {} }))).toBe('ada');
    const found = await client.callTool({ name: 'lookup', arguments: { key: 'k' } });
    expect(found.structuredContent).toEqual({ found: true, key: 'k' });
  });

  it('refuses a port out of range', async () => {
    await expect(
      startFixtureHttpServer({ name: 'x', toolsFile: 'x.json', port: 70_000 }),
    ).rejects.toThrow(/port is 70000; use an integer from 0 to 65535/);
  });
});
