import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectClient,
  type ElicitationScript,
  type TestClient,
} from '../mcp/server/mcp-clients.test-helpers.js';
import { startHttpServe, stdioTransport } from './serve-process.test-helpers.js';

// The repro over a real `hintgate serve` process and a real SDK client that answers
// the approval form (elicitation) after a delay: a write that asks keeps its place in the
// lock queue, so a read of the same file sent after it waits for it and sees what it wrote.

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hintgate-serve-order-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

let workspaces = 0;
const workspace = async (): Promise<string> => {
  workspaces += 1;
  const dir = join(root, `ws${workspaces}`);
  await mkdir(dir);
  await writeFile(join(dir, 'o.txt'), 'OLD\n');
  await writeFile(join(dir, 'p.txt'), 'P\n');
  return dir;
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const text = (result: { content: unknown }): string =>
  (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');

/** Answers each approval form `after` ms, with `answer`, once `ready` has settled. */
const delayed = (
  after: number,
  answer: 'allow_once' | 'decline',
  ready: () => Promise<unknown> = () => Promise.resolve(),
): ElicitationScript => ({
  answer: async () => {
    await ready();
    await sleep(after);
    return answer === 'decline'
      ? { action: 'decline' }
      : { action: 'accept', content: { decision: 'allow_once' } };
  },
});

describe.concurrent('hintgate serve: order while an approval is pending', () => {
  it('over stdio, [write_file(o) answered after 500 ms, read_file(o)] sent at once: the read sees NEW; a read of p runs meanwhile', async ({
    onTestFinished,
  }) => {
    const dir = await workspace();
    let readOfP: Promise<unknown> = Promise.resolve();
    const client: TestClient = await connectClient(
      stdioTransport(['--workspace', dir, '--mode', 'ask']),
      'legacy',
      // The read of p.txt, sent after the write, must not wait for this answer.
      delayed(500, 'allow_once', () => readOfP),
    );
    onTestFinished(() => client.close());
    const written = client.client.callTool({
      name: 'write_file',
      arguments: { path: 'o.txt', content: 'NEW\n' },
    });
    const readBack = client.client.callTool({ name: 'read_file', arguments: { path: 'o.txt' } });
    readOfP = client.client.callTool({ name: 'read_file', arguments: { path: 'p.txt' } });
    const [writeResult, readResult, otherResult] = await Promise.all([written, readBack, readOfP]);
    expect(writeResult.isError ?? false).toBe(false);
    expect(text(readResult)).toContain('NEW');
    expect(text(readResult)).not.toContain('OLD');
    expect(text(otherResult as { content: unknown })).toContain('P');
    expect(client.forms).toHaveLength(1);
  });

  it('over stdio, a declined write lets the read behind it go on, and it sees OLD', async ({
    onTestFinished,
  }) => {
    const dir = await workspace();
    const client = await connectClient(
      stdioTransport(['--workspace', dir, '--mode', 'ask']),
      'legacy',
      delayed(100, 'decline'),
    );
    onTestFinished(() => client.close());
    const [writeResult, readResult] = await Promise.all([
      client.client.callTool({
        name: 'write_file',
        arguments: { path: 'o.txt', content: 'NEW\n' },
      }),
      client.client.callTool({ name: 'read_file', arguments: { path: 'o.txt' } }),
    ]);
    expect(writeResult).toMatchObject({
      isError: true,
      _meta: { 'dev.hintgate/status': 'denied' },
    });
    expect(text(readResult)).toContain('OLD');
    expect(await readFile(join(dir, 'o.txt'), 'utf8')).toBe('OLD\n');
  });

  it('over HTTP, a read sent while the write waits for its approval form waits for the write and sees NEW', async ({
    onTestFinished,
  }) => {
    const dir = await workspace();
    const server = await startHttpServe(['--workspace', dir, '--mode', 'ask']);
    onTestFinished(async () => {
      await server.stop('SIGKILL');
    });
    let asked: () => void = () => {};
    const formShown = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const client = await connectClient(
      new StreamableHTTPClientTransport(new URL(server.url)),
      'legacy',
      {
        answer: async () => {
          asked();
          await sleep(500);
          return { action: 'accept', content: { decision: 'allow_once' } };
        },
      },
    );
    onTestFinished(() => client.close());
    const written = client.client.callTool({
      name: 'write_file',
      arguments: { path: 'o.txt', content: 'NEW\n' },
    });
    // Over HTTP requests travel on their own connections: send the read once the write is
    // known to have arrived and to wait for the person.
    await formShown;
    const readResult = await client.client.callTool({
      name: 'read_file',
      arguments: { path: 'o.txt' },
    });
    expect(text(readResult)).toContain('NEW');
    expect((await written).isError ?? false).toBe(false);
  });
});
