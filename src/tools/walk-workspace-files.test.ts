import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_IGNORE_FILE_BYTES, walkWorkspaceFiles } from './walk-workspace-files.js';
import { makeWorkspace, type TempWorkspace } from './workspace.test-helpers.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
  await temp.write({ 'a.ts': '', 'b.js': '', 'sub/c.ts': '' });
});
afterEach(() => temp.remove());

const walk = async (base = temp.workspace): Promise<string[]> => {
  const found: string[] = [];
  await walkWorkspaceFiles(
    { root: temp.workspace, base, signal: AbortSignal.timeout(5_000) },
    (file) => {
      found.push(file.path);
      return true;
    },
  );
  return found;
};

describe('walkWorkspaceFiles: which ignore files are read', () => {
  it('reads a regular .gitignore', async () => {
    await temp.write({ '.gitignore': '*.ts\n' });
    expect(await walk()).toEqual(['.gitignore', 'b.js']);
  });

  it('does not follow a .gitignore that is a symbolic link, even to a regular file', async () => {
    await writeFile(join(temp.outside, 'rules'), '*.ts\n');
    await symlink(join(temp.outside, 'rules'), join(temp.workspace, '.gitignore'));
    await writeFile(join(temp.workspace, 'rules'), '*.ts\n');
    await symlink('../rules', join(temp.workspace, 'sub/.gitignore'));
    expect(await walk()).toEqual([
      '.gitignore',
      'a.ts',
      'b.js',
      'rules',
      'sub/.gitignore',
      'sub/c.ts',
    ]);
    // Nor one above the directory searched, nor .git/info/exclude through a link.
    await mkdir(join(temp.workspace, '.git/info'), { recursive: true });
    await symlink(join(temp.outside, 'rules'), join(temp.workspace, '.git/info/exclude'));
    expect(await walk(join(temp.workspace, 'sub'))).toEqual(['sub/.gitignore', 'sub/c.ts']);
  });

  it('skips a .gitignore that links to /dev/zero without reading it', async () => {
    await symlink('/dev/zero', join(temp.workspace, '.gitignore'));
    const before = process.memoryUsage().rss;
    const started = Date.now();
    expect(await walk()).toEqual(['.gitignore', 'a.ts', 'b.js', 'sub/c.ts']);
    // Reading /dev/zero until Node gives up takes seconds and hundreds of megabytes.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('skips a FIFO .gitignore instead of blocking on it', async () => {
    execFileSync('mkfifo', [join(temp.workspace, '.gitignore')]);
    execFileSync('mkfifo', [join(temp.workspace, 'sub/.gitignore')]);
    expect(await walk()).toEqual(['.gitignore', 'a.ts', 'b.js', 'sub/.gitignore', 'sub/c.ts']);
  }, 5_000);

  it(`skips a .gitignore over ${MAX_IGNORE_FILE_BYTES} bytes`, async () => {
    await temp.write({ '.gitignore': `*.ts\n${'#'.repeat(MAX_IGNORE_FILE_BYTES)}\n` });
    expect(await walk()).toEqual(['.gitignore', 'a.ts', 'b.js', 'sub/c.ts']);
    await temp.write({ '.gitignore': `*.ts\n${'#'.repeat(MAX_IGNORE_FILE_BYTES - 10)}\n` });
    expect(await walk()).toEqual(['.gitignore', 'b.js']);
  });
});
