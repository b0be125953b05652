import { mkdir, readdir, readFile, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkspaceDirectory } from './open-workspace-directory.js';
import { makeWorkspace, type TempWorkspace } from './workspace.test-helpers.js';
import { writeWorkspaceFile } from './write-workspace-file.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
});
afterEach(() => temp.remove());

const modes = [
  ...(process.platform === 'linux' ? [{ name: 'through /proc handles', procfs: true }] : []),
  { name: 'by checking paths', procfs: false },
];

describe.each(modes)('openWorkspaceDirectory $name', ({ procfs }) => {
  it('creates missing directories and writes a file in the checked one', async () => {
    const dir = await openWorkspaceDirectory(temp.workspace, 'a/b', {
      create: true,
      shown: 'a/b/x.txt',
      procfs,
    });
    expect(dir.pinned).toBe(procfs);
    expect(await writeWorkspaceFile(dir, 'x.txt', 'hello')).toEqual({ replaced: false });
    expect(await writeWorkspaceFile(dir, 'x.txt', 'again')).toEqual({ replaced: true });
    await dir.close();
    expect(await readFile(join(temp.workspace, 'a/b/x.txt'), 'utf8')).toBe('again');
    expect(await readdir(join(temp.workspace, 'a/b'))).toEqual(['x.txt']);
  });

  it('refuses a component that is a symbolic link, even one pointing inside', async () => {
    await symlink(temp.outside, join(temp.workspace, 'out'));
    await mkdir(join(temp.workspace, 'real'));
    await symlink(join(temp.workspace, 'real'), join(temp.workspace, 'alias'));
    for (const path of ['out/new', 'alias']) {
      await expect(
        openWorkspaceDirectory(temp.workspace, path, { create: true, shown: `${path}/f`, procfs }),
      ).rejects.toThrow(/^Refused: ".*" changed while it was being written/);
    }
    expect(await readdir(temp.outside)).toEqual([]);
  });

  it('refuses to publish into a directory that was moved out of the workspace', async () => {
    await mkdir(join(temp.workspace, 'd'));
    const dir = await openWorkspaceDirectory(temp.workspace, 'd', {
      create: false,
      shown: 'd/f.txt',
      procfs,
    });
    await rename(join(temp.workspace, 'd'), join(temp.outside, 'd'));
    // Through the handle the write would land outside, so it is refused; by path, the
    // directory is simply gone.
    await expect(writeWorkspaceFile(dir, 'f.txt', 'x')).rejects.toThrow(
      procfs ? /^Refused: "d\/f.txt"/ : /ENOENT/,
    );
    await dir.close();
    expect(await readdir(join(temp.outside, 'd'))).toEqual([]);
  });
});
