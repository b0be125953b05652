import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { resultText, tempDir, toolsFileServer } from '../gateway/gateway.test-helpers.js';
import { connectClient } from '../mcp/server/mcp-clients.test-helpers.js';
import { processAlive, waitFor } from '../testing/index.js';
import { gatewayStdio } from './serve-process.test-helpers.js';

// `hintgate gateway` starts its stdio servers while it loads; each connection takes over the
// process started for it. A real gateway process in front of a real fixture server whose
// every start is written down (a `--import` module that appends the process id to a file).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const READ = { readOnlyHint: true, openWorldHint: false };
const RECORD_START = `import { appendFileSync } from 'node:fs';
appendFileSync(process.env.HINTGATE_TEST_STARTS, process.pid + '\\n');
`;

const startsIn = async (file: string): Promise<number[]> =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);

describe('hintgate gateway: stdio servers started early', () => {
  it('starts each stdio server once, and the connection uses that process', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const starts = join(dir, 'starts.txt');
    const recorder = join(dir, 'record-start.mjs');
    await writeFile(recorder, RECORD_START);
    const tools = [{ name: 'lookup', description: 'Reads a record.', annotations: READ }];
    const fixture = await toolsFileServer(dir, 'fixture', tools, { trusted: true });
    const entry = fixture.entry as { args: string[]; env: Record<string, string> };
    const server = {
      ...entry,
      args: ['--import', pathToFileURL(recorder).href, ...entry.args],
      env: { ...entry.env, HINTGATE_TEST_STARTS: starts },
    };
    const config = { servers: { fixture: server }, pin: { newTools: 'allow' } };
    await writeFile(join(dir, 'hintgate.yaml'), JSON.stringify(config));

    const { transport, stderr } = gatewayStdio(['--config', join(dir, 'hintgate.yaml')]);
    const client = await connectClient(transport, 'legacy');
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await client.close();
    });
    const result = await client.client.callTool({ name: 'lookup', arguments: {} });
    expect(resultText(result as { content: unknown[] })).toContain('lookup');
    expect(stderr()).toContain('serving 1 tools of 1 server');
    const [pid, ...more] = await startsIn(starts);
    expect(more).toEqual([]);
    expect(processAlive(pid as number)).toBe(true);

    await client.close();
    closed = true;
    // The gateway stops the process it took over when it ends.
    await waitFor(() => (processAlive(pid as number) ? undefined : true));
    expect(await startsIn(starts)).toEqual([pid]);
  });
});
