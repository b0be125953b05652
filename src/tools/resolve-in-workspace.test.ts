import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCommandSafety } from './check-command-safety.js';
import { commandApprovalKeys } from './command-approval-keys.js';
import { createReadFileTool } from './create-read-file-tool.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
import { htmlToText } from './html-to-text.js';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';
import { makeWorkspace, type TempWorkspace } from './workspace.test-helpers.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
  await temp.write({ 'src/a.ts': 'a', 'b.txt': 'b' });
});
afterEach(() => temp.remove());

describe('resolveInWorkspace', () => {
  it('resolves relative paths and normalizes them', () => {
    const resolved = resolveInWorkspace(temp.workspace, './src/../src/a.ts');
    expect(resolved).toEqual({
      absolute: join(temp.workspace, 'src/a.ts'),
      relative: 'src/a.ts',
      exists: true,
      root: temp.workspace,
    });
    expect(resolveInWorkspace(temp.workspace, '').relative).toBe('.');
    expect(resolveInWorkspace(temp.workspace, 'new/dir/c.txt')).toMatchObject({
      relative: 'new/dir/c.txt',
      exists: false,
    });
  });

  it('refuses ".." that leaves the workspace', () => {
    expect(() => resolveInWorkspace(temp.workspace, '../outside/x')).toThrow(
      /^Refused: "..\/outside\/x" leads out of the workspace/,
    );
    expect(() => resolveInWorkspace(temp.workspace, 'a/../../x')).toThrow(
      /leads out of the workspace/,
    );
    expect(() => resolveInWorkspace(temp.workspace, '..')).toThrow(/leads out/);
  });

  it('accepts an absolute path inside the workspace and refuses one outside', () => {
    expect(resolveInWorkspace(temp.workspace, join(temp.workspace, 'b.txt')).relative).toBe(
      'b.txt',
    );
    expect(() => resolveInWorkspace(temp.workspace, '/etc/passwd')).toThrow(
      /absolute path outside the workspace/,
    );
    expect(() => resolveInWorkspace(temp.workspace, join(temp.outside, 'x'))).toThrow(
      /outside the workspace/,
    );
  });

  it('refuses file and directory symlinks that resolve outside', async () => {
    await temp.write({});
    await symlink(join(temp.outside), join(temp.workspace, 'out-dir'));
    await symlink('/etc/hosts', join(temp.workspace, 'hosts'));
    expect(() => resolveInWorkspace(temp.workspace, 'hosts')).toThrow(
      /resolves through a symbolic link to "\/etc\/hosts"/,
    );
    expect(() => resolveInWorkspace(temp.workspace, 'out-dir')).toThrow(/outside the workspace/);
    // A file (existing or not) under a symlinked parent directory.
    expect(() => resolveInWorkspace(temp.workspace, 'out-dir/secret.txt')).toThrow(/symbolic link/);
    expect(() => resolveInWorkspace(temp.workspace, 'out-dir/new/deeper.txt')).toThrow(
      /symbolic link/,
    );
  });

  it('refuses a dangling symlink and follows links that stay inside', async () => {
    await symlink(join(temp.outside, 'missing'), join(temp.workspace, 'dangling'));
    expect(() => resolveInWorkspace(temp.workspace, 'dangling')).toThrow(/does not exist/);
    await symlink('src', join(temp.workspace, 'alias'));
    expect(resolveInWorkspace(temp.workspace, 'alias/a.ts').relative).toBe('src/a.ts');
  });

  it('follows a workspace that is itself reached through a symlink', async () => {
    const link = join(temp.outside, 'ws-link');
    await symlink(temp.workspace, link);
    await mkdir(join(temp.workspace, 'd'));
    expect(resolveInWorkspace(link, 'd').relative).toBe('d');
    expect(resolveInWorkspace(link, join(link, 'b.txt')).relative).toBe('b.txt');
  });
});

describe('workspaceFileKey', () => {
  it('refuses a megabyte path at once instead of resolving it part by part', () => {
    const long = `${'a/'.repeat(500_000)}x`;
    expect(() => resolveInWorkspace(temp.workspace, long)).toThrow(
      /^Refused: the path is 1000001 characters long; paths of at most 4096 characters/,
    );
    expect(workspaceFileKey(temp.workspace, long)).toBe('file:');
    expect(resolveInWorkspace(temp.workspace, `${'a/'.repeat(2000)}x`).exists).toBe(false);
  }, 30_000);

  it('gives one key to every spelling of one file', async () => {
    await symlink('src', join(temp.workspace, 'alias'));
    const keys = ['src/a.ts', './src/a.ts', join(temp.workspace, 'src/a.ts'), 'alias/a.ts'].map(
      (p) => workspaceFileKey(temp.workspace, p),
    );
    expect(new Set(keys)).toEqual(new Set(['file:src/a.ts']));
    expect(workspaceFileKey(temp.workspace, '.')).toBe('file:');
    expect(workspaceFileKey(temp.workspace, undefined)).toBe('file:');
  });

  it('keys a refused path by its absolute form', () => {
    expect(workspaceFileKey(temp.workspace, '../outside/x')).toBe(
      `file:${join(temp.outside, 'x')}`,
    );
  });
});

describe('argument checks of the exported helpers', () => {
  const invalidOption = expect.objectContaining({ name: 'HintgateError', code: 'invalid_option' });

  it('throw HintgateError invalid_option instead of a TypeError', () => {
    const calls: [string, () => unknown][] = [
      ['resolveInWorkspace()', () => (resolveInWorkspace as (...a: unknown[]) => unknown)()],
      [
        'resolveInWorkspace(ws, 5)',
        () => resolveInWorkspace(temp.workspace, 5 as unknown as string),
      ],
      ['resolveInWorkspace(relative)', () => resolveInWorkspace('ws', 'a')],
      ['workspaceFileKey(undefined)', () => workspaceFileKey(undefined as unknown as string, 'a')],
      ['workspaceFileKey(ws, {})', () => workspaceFileKey(temp.workspace, {} as unknown as string)],
      ['htmlToText(undefined)', () => htmlToText(undefined as unknown as string)],
      ['checkCommandSafety(undefined)', () => checkCommandSafety(undefined as unknown as string)],
      ['commandApprovalKeys(undefined)', () => commandApprovalKeys(undefined as unknown as string)],
      ['createWorkspaceTools(undefined)', () => createWorkspaceTools(undefined as never)],
      ['createReadFileTool({})', () => createReadFileTool({} as never)],
    ];
    for (const [name, call] of calls) expect(call, name).toThrow(invalidOption);
    expect(workspaceFileKey(temp.workspace, undefined)).toBe('file:');
  });
});
