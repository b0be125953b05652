import { chmod, lstat, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../runtime/runtime.js';
import {
  callTool,
  makeWorkspace,
  type TempWorkspace,
  textOf,
  toolRuntime,
} from './workspace.test-helpers.js';

let temp: TempWorkspace;
let runtime: Runtime;
beforeEach(async () => {
  temp = await makeWorkspace();
  runtime = toolRuntime({ workspace: temp.workspace });
});
afterEach(() => temp.remove());

const write = (path: string, content: string) => callTool(runtime, 'write_file', { path, content });

describe('write_file', () => {
  it('creates parent directories and the file, leaving no temporary file', async () => {
    const result = await write('deep/er/new.txt', 'one\ntwo\n');
    expect(textOf(result)).toBe('Created deep/er/new.txt (8 bytes, 2 lines).');
    expect(await readFile(join(temp.workspace, 'deep/er/new.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(await readdir(join(temp.workspace, 'deep/er'))).toEqual(['new.txt']);
  });

  it('replaces an existing file and keeps its permissions', async () => {
    await temp.write({ 'run.sh': 'old' });
    await chmod(join(temp.workspace, 'run.sh'), 0o750);
    expect(textOf(await write('run.sh', 'new'))).toBe('Replaced run.sh (3 bytes, 1 line).');
    expect(await readFile(join(temp.workspace, 'run.sh'), 'utf8')).toBe('new');
    expect((await stat(join(temp.workspace, 'run.sh'))).mode & 0o777).toBe(0o750);
  });

  it('writes through a symlink inside the workspace to its target', async () => {
    await temp.write({ 'real.txt': 'old' });
    await symlink('real.txt', join(temp.workspace, 'alias.txt'));
    await write('alias.txt', 'new');
    expect(await readFile(join(temp.workspace, 'real.txt'), 'utf8')).toBe('new');
    expect((await lstat(join(temp.workspace, 'alias.txt'))).isSymbolicLink()).toBe(true);
  });

  it('refuses to write outside: traversal, absolute, file and parent-directory symlinks', async () => {
    await temp.write({});
    await symlink(join(temp.outside, 'target.txt'), join(temp.workspace, 'dangling.txt'));
    await symlink(temp.outside, join(temp.workspace, 'out'));
    const attempts = [
      '../outside/x.txt',
      join(temp.outside, 'x.txt'),
      'dangling.txt',
      'out/x.txt',
      'out/new/dir/x.txt',
    ];
    for (const path of attempts) {
      const result = await write(path, 'pwned');
      expect(result.status, path).toBe('error');
      expect(textOf(result), path).toContain('Refused: ');
    }
    expect(await readdir(temp.outside)).toEqual([]);
  });

  it('says "loop of symbolic links" for a path through a symlink loop, never ELOOP', async () => {
    await symlink(join(temp.workspace, 'loop'), join(temp.workspace, 'loop'));
    for (const [tool, args] of [
      ['write_file', { path: 'loop/x.txt', content: 'x' }],
      ['edit_file', { path: 'loop', old_string: 'a', new_string: 'b' }],
      ['read_file', { path: 'loop/x.txt' }],
    ] as const) {
      const text = textOf(await callTool(runtime, tool, args));
      expect(text, tool).toContain('loop of symbolic links');
      expect(text, tool).not.toContain('ELOOP');
    }
  });

  it('refuses a directory as target', async () => {
    await temp.write({ 'd/x': '' });
    expect(textOf(await write('d', 'x'))).toContain('"d" is a directory');
  });
});
