import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { nodeScriptArgs } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import { REPO_ROOT, tempDir, writeConfig } from './gateway.test-helpers.js';

// Two MCP clients of one gateway fire their calls at once at a real server that runs calls
// concurrently and logs when each starts and ends: what overlapped is read from the order of
// the log lines.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FIXTURE = fileURLToPath(new URL('./fixtures/records-server.ts', import.meta.url));

/** A gateway in front of the records fixture, with `server` merged into its entry. */
async function setup(server: Record<string, unknown>) {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const log = join(dir, 'events.log');
  const config = await writeConfig(dir, {
    servers: {
      records: {
        command: process.execPath,
        args: nodeScriptArgs(FIXTURE),
        cwd: REPO_ROOT,
        env: { FIXTURE_EVENTS_LOG: log, FIXTURE_CALL_MS: '400' },
        trusted: true,
        ...server,
      },
    },
    pin: { newTools: 'allow' },
    mode: 'yolo',
  });
  const gateway = await createGateway({ config, watchPins: false, onNotice: () => {} });
  cleanups.push(() => gateway.close());
  const client = async () => {
    const connected = await connectInMemory(gateway.toolServer);
    cleanups.push(() => connected.close());
    return connected.client;
  };
  /** Which calls ran at the same time, from the log: "<tool> <key>" pairs. */
  const overlaps = async (): Promise<string[][]> => {
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    const span = (call: string) => [lines.indexOf(`start ${call}`), lines.indexOf(`end ${call}`)];
    const calls = lines.filter((line) => line.startsWith('start ')).map((line) => line.slice(6));
    for (const call of calls) expect(span(call)[1], `${call} ended`).toBeGreaterThan(0);
    const pairs: string[][] = [];
    calls.forEach((a, i) => {
      for (const b of calls.slice(i + 1)) {
        const [aStart = 0, aEnd = 0] = span(a);
        const [bStart = 0, bEnd = 0] = span(b);
        if (aStart < bEnd && bStart < aEnd) pairs.push([a, b].sort());
      }
    });
    return pairs.sort();
  };
  return { client, overlaps };
}

const call = (
  client: Awaited<ReturnType<Awaited<ReturnType<typeof setup>>['client']>>,
  name: string,
  args: Record<string, string>,
) => client.callTool({ name, arguments: args });

describe('gateway scheduling across clients', () => {
  it('never runs a write of a record at the same time as a read of it, whichever client sent them; other records go on meanwhile', async () => {
    const s = await setup({
      tools: {
        read_record: { resources: ['record:{key}'] },
        write_record: { resources: ['record:{key}'] },
      },
    });
    const [a, b] = [await s.client(), await s.client()];
    const results = await Promise.all([
      call(a, 'write_record', { key: 'k1', value: 'v' }),
      call(b, 'read_record', { key: 'k1' }),
      call(a, 'read_record', { key: 'k2' }),
    ]);
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false]);

    const overlaps = await s.overlaps();
    expect(overlaps).not.toContainEqual(['read_record k1', 'write_record k1']);
    // The read of another record did not wait for the write.
    expect(overlaps).toContainEqual(['read_record k2', 'write_record k1'].sort());
  });

  it('keeps at most `concurrency` calls at a time on a server, across clients', async () => {
    const s = await setup({ concurrency: 1 });
    const [a, b] = [await s.client(), await s.client()];
    await Promise.all([
      call(a, 'read_record', { key: 'k1' }),
      call(b, 'read_record', { key: 'k2' }),
      call(a, 'read_record', { key: 'k3' }),
      call(b, 'read_record', { key: 'k4' }),
    ]);
    expect(await s.overlaps()).toEqual([]);
  });
});
