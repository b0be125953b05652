// How a probed server is kept from the host: its own code copied into the sandbox, the host's
// package caches handed in, bubblewrap making the host read-only, and npx installing first.
// Real processes, real npm (offline: a local tarball), real bwrap where it works.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureCommand } from '../../cli/ensure-command.test-helpers.js';
import { detectBubblewrap } from './bubblewrap.js';
import { copyServerPackage } from './copy-server-package.js';
import { hostPackageCaches } from './package-caches.js';
import { fixtureTarget, REPO_ROOT } from './probe.test-helpers.js';
import { probeServer } from './probe-server.js';

const run = promisify(execFile);
const missingBwrap = ensureCommand('bwrap', 'bubblewrap');
const bubblewrap = await detectBubblewrap();

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hintgate-isolation-')));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('hostPackageCaches', () => {
  it("finds npm's and uv's caches where the tools look, honours their variables, and skips missing ones", async () => {
    const home = join(dir, 'home');
    await mkdir(join(home, '.npm'), { recursive: true });
    await mkdir(join(home, '.local', 'share', 'uv', 'python'), { recursive: true });
    expect(hostPackageCaches({}, 'linux', home)).toEqual([
      { name: 'npm', variable: 'npm_config_cache', path: join(home, '.npm'), writable: true },
      {
        name: 'uv python',
        variable: 'UV_PYTHON_INSTALL_DIR',
        path: join(home, '.local', 'share', 'uv', 'python'),
        writable: false,
      },
    ]);
    const uv = join(dir, 'uv-cache');
    await mkdir(uv);
    expect(
      hostPackageCaches({ UV_CACHE_DIR: uv, npm_config_cache: join(dir, 'none') }, 'linux', home),
    ).toEqual([
      { name: 'uv', variable: 'UV_CACHE_DIR', path: uv, writable: true },
      expect.objectContaining({ name: 'uv python' }),
    ]);
  });
});

describe('copyServerPackage', () => {
  it('copies an installed package into the sandbox; it runs from there and finds its dependencies', async () => {
    const modules = join(dir, 'project', 'node_modules');
    await mkdir(join(modules, 'writer', 'dist'), { recursive: true });
    await mkdir(join(modules, 'dep'), { recursive: true });
    await writeFile(join(modules, 'dep', 'package.json'), '{"name":"dep","main":"index.js"}');
    await writeFile(join(modules, 'dep', 'index.js'), 'module.exports = "from dep";\n');
    await writeFile(join(modules, 'writer', 'package.json'), '{"name":"writer"}');
    await writeFile(
      join(modules, 'writer', 'dist', 'index.js'),
      `const fs = require('node:fs');\nfs.writeFileSync(require('node:path').join(__dirname, 'data.txt'), require('dep'));\n`,
    );
    const copy = await copyServerPackage(
      join(modules, 'writer', 'dist', 'index.js'),
      join(dir, 'sandbox', 'install'),
    );
    expect(copy).toMatchObject({
      copied: true,
      from: join(modules, 'writer'),
      to: join(dir, 'sandbox', 'install', 'writer'),
      script: join(dir, 'sandbox', 'install', 'writer', 'dist', 'index.js'),
      dependencies: [modules],
    });
    if (!copy.copied) return;
    await run(process.execPath, [copy.script]);
    expect(await readFile(join(copy.to, 'dist', 'data.txt'), 'utf8')).toBe('from dep');
    expect(await readdir(join(modules, 'writer', 'dist'))).toEqual(['index.js']);
  });

  it('leaves a script that is not part of an installed package where it is', async () => {
    const script = join(dir, 'own', 'server.js');
    await mkdir(join(dir, 'own'));
    await writeFile(join(dir, 'own', 'package.json'), '{}');
    await writeFile(script, '');
    const copy = await copyServerPackage(script, join(dir, 'unused'));
    expect(copy).toEqual({
      copied: false,
      reason: expect.stringContaining('is not part of an installed package'),
    });
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  });
});

describe.skipIf(!bubblewrap.available)(
  `bubblewrap isolation${bubblewrap.available ? '' : ` (skipped: ${bubblewrap.available === false ? bubblewrap.reason : ''}; ${missingBwrap ?? ''})`}`,
  () => {
    it('keeps a server from writing outside its sandbox, and says so in the report', async () => {
      const log = join(dir, 'outside.jsonl');
      const report = await probeServer({
        server: 'honest',
        target: fixtureTarget('honest-server', { PROBE_FIXTURE_CALL_LOG: log }),
        isolation: 'bubblewrap',
      });
      expect(existsSync(log)).toBe(false);
      expect(report.verdicts.find((v) => v.tool === 'read_note')?.reason).toContain('EROFS');
      expect(report.sandbox.isolation).toMatchObject({ kind: 'bubblewrap' });
      expect(report.sandbox.isolation?.reason).toBeUndefined();
    });
  },
);

describe('a server run by npx', () => {
  // A package of its own (packed to a tarball, so npx installs it offline) whose server
  // writes notes.jsonl beside its own code, as server-memory does.
  const serverModule = (name: string) =>
    JSON.stringify(
      pathToFileURL(
        join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server', 'dist', name),
      ).href,
    );
  let tarball: string;
  let cache: string;
  beforeAll(async () => {
    const source = join(dir, 'note-server');
    await mkdir(source, { recursive: true });
    await writeFile(
      join(source, 'package.json'),
      JSON.stringify({
        name: 'note-server',
        version: '1.0.0',
        bin: { 'note-server': 'server.mjs' },
      }),
    );
    await writeFile(
      join(source, 'server.mjs'),
      `#!/usr/bin/env node
import { appendFileSync } from 'node:fs';
import { Server } from ${serverModule('index.mjs')};
import { serveStdio } from ${serverModule('stdio.mjs')};
const file = new URL('./notes.jsonl', import.meta.url);
serveStdio(() => {
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({
    tools: [{
      name: 'add_note',
      description: 'Adds a note.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: false, destructiveHint: false },
    }],
  }));
  server.setRequestHandler('tools/call', async (request) => {
    appendFileSync(file, JSON.stringify(request.params.arguments) + '\\n');
    return { content: [{ type: 'text', text: 'added' }] };
  });
  return server;
});
`,
    );
    const packed = await run('npm', ['pack', '--silent', source], { cwd: dir });
    tarball = join(dir, packed.stdout.trim());
    cache = join(dir, 'npm-cache');
    await mkdir(cache);
    // The host's npm cache, as hintgate finds it: the test's own.
    vi.stubEnv('npm_config_cache', cache);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('installs first, then runs the server from a copy: its install folder stays untouched and its writes are reported', async () => {
    const events: string[] = [];
    const report = await probeServer({
      server: 'notes',
      target: { command: 'npx', args: ['-y', '--package', tarball, '--', 'note-server'] },
      allowWrites: true,
      onProgress: (event) => events.push(event.phase),
    });
    expect(events.slice(0, 3)).toEqual(['installing', 'starting', 'listed']);
    const installed = join(cache, '_npx');
    const [hash] = await readdir(installed);
    const folder = join(installed, hash ?? '', 'node_modules', 'note-server');
    expect((await readdir(folder)).sort()).toEqual(['package.json', 'server.mjs']);
    expect(report.sandbox.isolation).toMatchObject({
      caches: [expect.objectContaining({ name: 'npm', path: cache, writable: true })],
      serverCopy: { from: folder, to: join(report.sandbox.root, 'install', 'note-server') },
    });
    expect(report.sandbox.isolation?.kind).toBe(bubblewrap.available ? 'bubblewrap' : 'none');
    const verdict = report.verdicts.find((v) => v.tool === 'add_note');
    expect(verdict?.evidence).toContain(
      'first call: created install/note-server/notes.jsonl (file, 17 bytes)',
    );
  });
});
