// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readClientServers } from './read-client-servers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-client-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = async (name: string, text: string): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

describe('readClientServers', () => {
  it("reads Claude Desktop's mcpServers in file order, renaming names hintgate cannot use", async () => {
    const path = await file(
      'claude_desktop_config.json',
      JSON.stringify({
        mcpServers: {
          'my files': {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
          },
          'my-files': { command: 'node', args: ['x.js'] },
          remote: { url: 'https://example.com/mcp' },
        },
        globalShortcut: 'Ctrl+Space',
      }),
    );
    const result = await readClientServers(path);
    expect(result.block).toBe('mcpServers');
    expect(result.skipped).toEqual([]);
    expect(result.servers.map((server) => [server.name, server.renamedFrom])).toEqual([
      ['my-files-2', 'my files'],
      ['my-files', undefined],
      ['remote', undefined],
    ]);
    expect(result.servers[0]?.entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
    });
  });

  it("reads VS Code's mcp.json (comments, trailing commas, servers) and settings.json (mcp.servers)", async () => {
    const mcp = await file(
      'mcp.json',
      '{\n  // my servers\n  "inputs": [],\n  "servers": {\n    "git": { "type": "stdio", "command": "git-mcp", },\n  },\n}\n',
    );
    expect((await readClientServers(mcp)).servers).toEqual([
      { name: 'git', entry: { type: 'stdio', command: 'git-mcp' }, warnings: [] },
    ]);
    const settings = await file(
      'settings.json',
      '{ "editor.fontSize": 14, "mcp": { "servers": { "memory": { "command": "mem" } } } }',
    );
    const read = await readClientServers(settings);
    expect(read.block).toBe('mcp.servers');
    expect(read.servers.map((server) => server.name)).toEqual(['memory']);
  });

  it('leaves out servers the gateway could not run, with the reason, and warns of variables not set here', async () => {
    const path = await file(
      'mcp.json',
      JSON.stringify({
        mcpServers: {
          off: { command: 'a', disabled: true },
          broken: { args: ['no command'] },
          input: { command: 'a', env: { KEY: '${input:key}' } },
          later: { command: 'a', env: { KEY: '${HINTGATE_TEST_UNSET_VARIABLE}' } },
          hintgate: { command: 'hintgate', args: ['gateway', '--config', '/x/hintgate.yaml'] },
          viaNpx: { command: 'npx', args: ['-y', 'hintgate@latest', 'gateway'] },
          checkout: { command: 'node', args: ['/src/hintgate/dist/cli/main.js', 'gateway'] },
        },
      }),
    );
    const result = await readClientServers(path);
    expect(result.skipped.map((skipped) => skipped.name)).toEqual([
      'off',
      'broken',
      'input',
      'hintgate',
      'viaNpx',
      'checkout',
    ]);
    expect(result.skipped[3]?.reason).toBe('it is a hintgate gateway, which would front itself');
    expect(result.skipped[0]?.reason).toContain('disabled: true');
    expect(result.skipped[1]?.reason).toMatch(/command/);
    expect(result.skipped[2]?.reason).toContain('VS Code input');
    expect(result.servers.map((server) => server.name)).toEqual(['later']);
    expect(result.servers[0]?.warnings.join(' ')).toContain(
      'HINTGATE_TEST_UNSET_VARIABLE}, which is not set',
    );
  });

  it('says where a file is broken, or that it lists no servers', async () => {
    await expect(
      readClientServers(await file('a.json', '{\n  "mcpServers": {\n    "x": }\n}')),
    ).rejects.toThrow(/a\.json:3:10: the JSON cannot be parsed \(ValueExpected\)/);
    await expect(readClientServers(await file('b.json', '{ "theme": "dark" }'))).rejects.toThrow(
      /has no MCP servers: hintgate looks for "mcpServers"/,
    );
    await expect(readClientServers(join(dir, 'missing.json'))).rejects.toThrow(
      /missing\.json does not exist; give the client's configuration file with --from FILE/,
    );
  });
});
