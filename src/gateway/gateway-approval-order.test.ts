import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { createGateway } from './create-gateway.js';
import { filesystemServer, resultText, tempDir, writeConfig } from './gateway.test-helpers.js';

// The order of conflicting calls holds through the gateway while one of them waits for the
// person at the MCP client: a write that asks keeps its place, so a read of the same file
// sent after it waits for it. Upstream is the reference filesystem MCP server.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function setup() {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  await writeFile(join(dir, 'o.txt'), 'OLD');
  await writeFile(join(dir, 'p.txt'), 'P');
  const keyed = { resources: ['file:{path}'] };
  const config = await writeConfig(dir, {
    servers: {
      files: filesystemServer(dir, {
        trusted: true,
        tools: { write_file: keyed, read_text_file: keyed },
      }),
    },
    pin: { newTools: 'allow' },
    mode: 'ask',
  });
  const gateway = await createGateway({ config, watchPins: false, onNotice: () => {} });
  cleanups.push(() => gateway.close());
  return { dir, gateway };
}

describe('gateway: order while an approval is pending', () => {
  it('[write_file(o) answered after 500 ms, read_text_file(o)] as two concurrent requests: the read sees NEW; a read of p runs meanwhile', async () => {
    const { dir, gateway } = await setup();
    const done: string[] = [];
    let readOfP: Promise<unknown> = Promise.resolve();
    const client = await connectInMemory(gateway.toolServer, {
      answer: async () => {
        // The read of p.txt, sent after the write, does not wait for this answer.
        await readOfP;
        await sleep(500);
        return { action: 'accept', content: { decision: 'allow_once' } };
      },
    });
    cleanups.push(() => client.close());
    const call = (name: string, args: Record<string, string>) =>
      client.client.callTool({ name, arguments: args }).then((result) => {
        done.push(`${name} ${args.path?.slice(dir.length + 1)}`);
        return result;
      });
    const written = call('write_file', { path: join(dir, 'o.txt'), content: 'NEW' });
    const readBack = call('read_text_file', { path: join(dir, 'o.txt') });
    readOfP = call('read_text_file', { path: join(dir, 'p.txt') });
    const [writeResult, readResult] = await Promise.all([written, readBack, readOfP]);
    expect(writeResult.isError ?? false).toBe(false);
    expect(resultText(readResult as { content: unknown[] })).toBe('NEW');
    // The read of p answered first; the read of o ran after the write (it saw NEW), though
    // its answer may reach the client before the write's, which waits for the audit sync.
    expect(done[0]).toBe('read_text_file p.txt');
    expect(client.forms).toHaveLength(1);
  });

  it('lets the read go on as soon as the write is declined, and it sees OLD', async () => {
    const { dir, gateway } = await setup();
    const client = await connectInMemory(gateway.toolServer, {
      answer: async () => {
        await sleep(100);
        return { action: 'decline' };
      },
    });
    cleanups.push(() => client.close());
    const [writeResult, readResult] = await Promise.all([
      client.client.callTool({
        name: 'write_file',
        arguments: { path: join(dir, 'o.txt'), content: 'NEW' },
      }),
      client.client.callTool({ name: 'read_text_file', arguments: { path: join(dir, 'o.txt') } }),
    ]);
    expect(writeResult).toMatchObject({
      isError: true,
      _meta: { 'dev.hintgate/status': 'denied' },
    });
    expect(resultText(readResult as { content: unknown[] })).toBe('OLD');
    expect(await readFile(join(dir, 'o.txt'), 'utf8')).toBe('OLD');
  });
});
