import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureServer } from './create-fixture-server.js';
import { createTempWorkspace, type TempWorkspace } from './create-temp-workspace.js';
import { processAlive } from './process-alive.js';

let made: TempWorkspace | undefined;
afterEach(() => made?.remove());

const built = new URL('../../dist/testing/create-fixture-server.js', import.meta.url);

/** Connects a client to a fixture server's entry over stdio. */
const connect = async (entry: Record<string, unknown>): Promise<Client> => {
  const { command, args, env, cwd } = entry as {
    command: string;
    args: string[];
    env: Record<string, string>;
    cwd?: string;
  };
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    ...(cwd === undefined ? {} : { cwd }),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'fixture-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
};

describe('createFixtureServer', () => {
  it('lists its tools as written, answers calls, takes a new list, and is gone after close', async () => {
    made = await createTempWorkspace();
    const server = await createFixtureServer({
      dir: made.workspace,
      name: 'files',
      tools: [
        { name: 'read_note', description: 'Reads a note.', annotations: { readOnlyHint: true } },
      ],
    });
    const client = await connect(server.entry);
    let pid = 0;
    try {
      const listed = await client.listTools();
      expect(listed.tools).toEqual([
        {
          name: 'read_note',
          description: 'Reads a note.',
          inputSchema: { type: 'object' },
          annotations: { readOnlyHint: true },
        },
      ]);
      const answer = await client.callTool({ name: 'read_note', arguments: { id: 7 } });
      expect(answer.content).toEqual([{ type: 'text', text: 'files read_note {"id":7}' }]);
      await server.setTools([{ name: 'write_note', description: 'Writes a note.' }]);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['write_note']);
      const pidAnswer = await client.callTool({ name: 'pid', arguments: {} });
      pid = Number((pidAnswer.content as Array<{ text: string }>)[0]?.text);
      expect(processAlive(pid)).toBe(true);
    } finally {
      await client.close();
    }
    await expect.poll(() => processAlive(pid), { timeout: 10_000 }).toBe(false);
  });

  it('refuses a tool name an MCP server may not list, and a bad server name', async () => {
    made = await createTempWorkspace();
    const dir = made.workspace;
    await expect(
      createFixtureServer({ dir, name: 'x', tools: [{ name: 'no spaces', description: '' }] }),
    ).rejects.toThrow(/breaks the MCP name rules/);
    await expect(createFixtureServer({ dir, name: '../x', tools: [] })).rejects.toThrow(
      /use 1-64 of/,
    );
  });

  it.runIf(existsSync(built))(
    'runs from the built package with plain node, without tsx',
    async () => {
      made = await createTempWorkspace();
      const fromDist = (await import(built.href)) as typeof import('./create-fixture-server.js');
      const server = await fromDist.createFixtureServer({
        dir: made.workspace,
        name: 'dist',
        tools: [{ name: 'x', description: 'X.' }],
      });
      expect(server.entry.args).toEqual([
        new URL('../../dist/testing/fixture-server-process.js', import.meta.url).pathname,
      ]);
      const client = await connect(server.entry);
      try {
        const answer = await client.callTool({ name: 'x', arguments: {} });
        expect(answer.content).toEqual([{ type: 'text', text: 'dist x {}' }]);
      } finally {
        await client.close();
      }
    },
  );
});
