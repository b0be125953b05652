import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type DiscoveryDirs,
  discoveryDirs,
  readToolModule,
} from '../discovery/discovery.test-helpers.js';
import { connectClient, ERAS } from '../mcp/server/mcp-clients.test-helpers.js';
import { captureCli } from './run-cli.test-helpers.js';
import { REPO_ROOT, serveArgv } from './serve-process.test-helpers.js';

// `hintgate tools` and `hintgate trust` in process, and a real `hintgate serve` child
// process, over folders in a temp HOME (HINTGATE_HOME) and a temp project.
vi.setConfig({ testTimeout: 60_000 });

let dirs: DiscoveryDirs;
beforeEach(async () => {
  dirs = await discoveryDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

const cli = (args: readonly string[]) =>
  captureCli(args, { env: { HINTGATE_HOME: dirs.home }, cwd: dirs.project });

describe('hintgate tools and hintgate trust', () => {
  it('lists what is bound to each name and from where, held-back project tools with the command, until trusted', async () => {
    const globalFile = await dirs.writeGlobal('read.mjs', readToolModule('read_file', 'global'));
    const projectFile = await dirs.writeProject('deploy.mjs', readToolModule('deploy', 'ok'));
    await dirs.writeGlobal('broken.mjs', 'export const nothing = 1;\n');

    const before = await cli(['tools']);
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(new RegExp(`read_file +global +${globalFile} +bundled local`));
    expect(before.stdout).not.toMatch(/^deploy /m);
    expect(before.stdout).toContain(
      `Held back: 1 tool module(s) in ${dirs.project}/.hintgate/tools`,
    );
    expect(before.stdout).toContain(`Review them, then run: hintgate trust "${dirs.project}"`);
    expect(before.stdout).toMatch(/Left out:\n.*broken\.mjs exports no tool/);

    const trusted = await cli(['trust']);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`Trusted ${dirs.project} with 1 tool module(s): deploy.mjs`);

    const after = await cli(['tools', '--json']);
    const listed = JSON.parse(after.stdout) as {
      tools: { name: string; layer: string; file?: string }[];
      discovery: { heldBack?: unknown };
    };
    expect(listed.tools.find((t) => t.name === 'deploy')).toMatchObject({
      layer: 'project',
      file: projectFile,
    });
    expect(listed.discovery.heldBack).toBeUndefined();

    // A changed file is held back again until trusted again.
    await dirs.writeProject('deploy.mjs', readToolModule('deploy', 'changed'));
    const changed = await cli(['tools']);
    expect(changed.stdout).toContain('changed since the folder was trusted');

    expect((await cli(['trust', '--list'])).stdout).toContain(dirs.project);
    expect((await cli(['trust', '--revoke'])).stdout).toContain(
      `No longer trusted: ${dirs.project}`,
    );
  });

  it('refuses to trust a folder without tools, and a second folder argument', async () => {
    const none = await cli(['trust']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('.hintgate/tools does not exist');
    expect((await cli(['trust', 'a', 'b'])).code).toBe(2);
  });

  it('serve loads global and trusted project tools beside the built-in ones, and holds untrusted ones back', async () => {
    await dirs.writeGlobal('hello.mjs', readToolModule('hello', 'from global'));
    await dirs.writeProject('deploy.mjs', readToolModule('deploy', 'deployed'));
    const serve = async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: serveArgv(['--workspace', dirs.project, '--mode', 'auto']),
        cwd: REPO_ROOT,
        env: { ...(process.env as Record<string, string>), HINTGATE_HOME: dirs.home },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const client = await connectClient(transport, ERAS[0]);
      const names = (await client.client.listTools()).tools.map((t) => t.name);
      return { client, names, stderr: () => stderr };
    };

    const untrusted = await serve();
    expect(untrusted.names).toContain('hello');
    expect(untrusted.names).toContain('read_file');
    expect(untrusted.names).not.toContain('deploy');
    expect(untrusted.stderr()).toContain(`run: hintgate trust "${dirs.project}"`);
    await untrusted.client.close();

    expect((await cli(['trust', dirs.project])).code).toBe(0);
    const trusted = await serve();
    expect(trusted.names).toContain('deploy');
    const result = await trusted.client.client.callTool({ name: 'deploy', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'deployed' }]);
    await trusted.client.close();
  });
});
