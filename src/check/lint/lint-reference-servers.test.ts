import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintTools } from './lint-tools.js';

const modules = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/', import.meta.url),
);

async function listTools(args: readonly string[]): Promise<unknown[]> {
  const client = new Client({ name: 'hintgate-lint-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [...args], stderr: 'ignore' }),
  );
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

describe('lintTools on the MCP reference servers', () => {
  let root: string;

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'hintgate-lint-fs-')));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it.each([
    ['filesystem', () => [join(modules, 'server-filesystem', 'dist', 'index.js'), root]],
    ['everything', () => [join(modules, 'server-everything', 'dist', 'index.js'), 'stdio']],
  ])('finds no medium or high problem in server-%s', async (server, args) => {
    const tools = await listTools(args());
    expect(tools.length).toBeGreaterThan(5);
    const serious = lintTools(server, tools)
      .filter((finding) => finding.severity !== 'low')
      .map((finding) => `${finding.tool}: ${finding.id}: ${finding.message}`);
    expect(serious).toEqual([]);
  });
});
