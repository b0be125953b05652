import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffSnapshots, formatFileChange, snapshotFiles } from './fs-snapshot.js';
import { createSandbox, SEEDED_FILES, sandboxCommandLine, sandboxEnvironment } from './sandbox.js';

let host: string;
beforeEach(async () => {
  host = await mkdtemp(join(tmpdir(), 'hintgate-sandbox-test-'));
});
afterEach(async () => {
  await rm(host, { recursive: true, force: true });
});

describe('createSandbox', () => {
  it('makes seeded work, home, temp and XDG directories and removes them unless kept', async () => {
    const sandbox = await createSandbox({ parent: host });
    for (const dir of [sandbox.work, sandbox.home, sandbox.tmp, ...Object.values(sandbox.xdg)]) {
      expect(existsSync(dir)).toBe(true);
    }
    for (const [path, text] of SEEDED_FILES) {
      expect(await readFile(join(sandbox.work, path), 'utf8')).toBe(text);
    }
    await sandbox.dispose();
    expect(existsSync(sandbox.root)).toBe(false);
    const kept = await createSandbox({ parent: host, keep: true });
    await kept.dispose();
    expect(existsSync(kept.work)).toBe(true);
  });

  it('gives the server PATH, its configured variables and sandbox directories, nothing else', async () => {
    const sandbox = await createSandbox({ parent: host });
    const env = sandboxEnvironment(
      sandbox,
      { TOKEN: 'configured', HOME: '/configured/home' },
      ['EXTRA'],
      { PATH: '/bin', SECRET: 'host only', EXTRA: 'asked for' },
    );
    expect(env).toMatchObject({
      PATH: '/bin',
      TOKEN: 'configured',
      EXTRA: 'asked for',
      HOME: sandbox.home,
      TMPDIR: sandbox.tmp,
    });
    expect(env.SECRET).toBeUndefined();
    await sandbox.dispose();
  });
});

describe('sandboxCommandLine', () => {
  it('replaces host directories (absolute, ./relative, --opt=dir; not bare words) with the work directory and makes relative scripts absolute', async () => {
    await mkdir(join(host, 'root'));
    await writeFile(join(host, 'server.js'), '');
    const line = sandboxCommandLine(
      'node',
      ['./server.js', '--root=./root', 'root', host, '-y', 'some-package', '/no/such/dir'],
      '/sandbox/work',
      host,
    );
    expect(line).toEqual({
      command: 'node',
      args: [
        join(host, 'server.js'),
        '--root=/sandbox/work',
        'root',
        '/sandbox/work',
        '-y',
        'some-package',
        '/no/such/dir',
      ],
      substituted: [
        { index: 1, from: join(host, 'root') },
        { index: 3, from: host },
      ],
    });
  });
});

describe('snapshotFiles and diffSnapshots', () => {
  it('names created, modified and deleted paths with what changed', async () => {
    await mkdir(join(host, 'a'));
    await writeFile(join(host, 'a', 'keep.txt'), 'same');
    await writeFile(join(host, 'a', 'grow.txt'), 'one');
    await writeFile(join(host, 'gone.txt'), 'bye');
    await writeFile(join(host, 'touched.txt'), 'same');
    const before = await snapshotFiles(host);
    await appendFile(join(host, 'a', 'grow.txt'), ' two');
    await rm(join(host, 'gone.txt'));
    await mkdir(join(host, 'b'));
    await writeFile(join(host, 'b', 'new.txt'), 'hello');
    await utimes(join(host, 'touched.txt'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const changes = diffSnapshots(before, await snapshotFiles(host));
    expect(changes.map(formatFileChange)).toEqual([
      'modified a/grow.txt (size 3 -> 7 bytes, content changed)',
      'created b (directory)',
      'created b/new.txt (file, 5 bytes)',
      'deleted gone.txt (file, 3 bytes)',
      'modified touched.txt (modification time changed, same content)',
    ]);
    expect(changes.find((c) => c.path === 'touched.txt')?.metadataOnly).toBe(true);
    expect(diffSnapshots(before, before)).toEqual([]);
  });
});
