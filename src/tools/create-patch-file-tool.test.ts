import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
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

const numbered = (name: string, count: number): string =>
  `${Array.from({ length: count }, (_, i) => `${name} line ${i + 1}`).join('\n')}\n`;

const ORIGINAL: Record<string, string> = {
  'a.txt': numbered('a', 30),
  'src/b.ts': 'export function b(): number {\n  return 1;\n}\n',
  'old.txt': numbered('old', 8),
  'gone.txt': 'to be removed\nsecond line\n',
  'keep.txt': 'untouched\n',
};

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });

/** Every file under a directory (but .git) with its content. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = relative(root, join(entry.parentPath, entry.name));
    if (entry.isFile() && !path.startsWith('.git/')) {
      files[path] = await readFile(join(root, path), 'utf8');
    }
  }
  return files;
}

/**
 * A real multi-file diff, as `git diff --cached -M` prints it, of ORIGINAL against an edited
 * copy in a git repository outside the workspace: two hunks in a.txt, one in src/b.ts, a
 * new file in a new directory, a deleted file, a renamed and edited file. Returns the diff
 * and the files as they should end up.
 */
async function gitDiff(): Promise<{ diff: string; expected: Record<string, string> }> {
  const repo = join(temp.outside, 'repo');
  await temp.write(ORIGINAL);
  await mkdir(join(repo, 'src/new'), { recursive: true });
  for (const [path, content] of Object.entries(ORIGINAL)) {
    await writeFile(join(repo, path), content);
  }
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'original');
  await writeFile(
    join(repo, 'a.txt'),
    ORIGINAL['a.txt']
      ?.replace('a line 3\n', 'a line three\n')
      .replace('a line 27\n', 'a line 27\ninserted after 27\n') ?? '',
  );
  await writeFile(join(repo, 'src/b.ts'), 'export function b(): number {\n  return 2;\n}\n');
  await writeFile(join(repo, 'src/new/c.ts'), 'export const c = 3;\n');
  await rm(join(repo, 'gone.txt'));
  await rm(join(repo, 'old.txt'));
  await writeFile(
    join(repo, 'renamed.txt'),
    ORIGINAL['old.txt']?.replace('old line 8', 'new line 8') ?? '',
  );
  git(repo, 'add', '-A');
  const diff = git(repo, 'diff', '--cached', '-M');
  return { diff, expected: await snapshot(repo) };
}

describe('patch_file with a unified diff', () => {
  it('applies a real multi-file git diff: hunks, a new file, a deletion and a rename', async () => {
    const { diff, expected } = await gitDiff();
    expect(diff).toContain('rename from old.txt');
    expect(diff).toContain('deleted file mode');
    const result = await callTool(runtime, 'patch_file', { patch: diff });
    expect(result.status).toBe('ok');
    expect(textOf(result)).toBe(
      'Patched 6 files: modified a.txt (2 hunks); deleted gone.txt; renamed old.txt to renamed.txt (1 hunk); modified src/b.ts (1 hunk); created src/new/c.ts.',
    );
    expect(await snapshot(temp.workspace)).toEqual(expected);
  });

  it('writes nothing when a hunk of a later file fails, and names that hunk', async () => {
    const { diff } = await gitDiff();
    await temp.write({ 'src/b.ts': 'export function b(): number {\n  return 10;\n}\n' });
    const before = await snapshot(temp.workspace);
    const result = await callTool(runtime, 'patch_file', { patch: diff });
    expect(result.status).toBe('error');
    expect(textOf(result)).toContain(
      'Hunk 1 of 1 for src/b.ts (@@ -1,3 +1,3 @@) does not apply: line 2 of the file is "  return 10;", where the hunk expects "  return 1;".',
    );
    expect(textOf(result)).toContain('Nothing was changed.');
    // a.txt, gone.txt and old.txt come before src/b.ts in the diff and would have applied.
    expect(await snapshot(temp.workspace)).toEqual(before);
    await expect(stat(join(temp.workspace, 'src/new'))).rejects.toThrow(/ENOENT/);
  });

  it('names the second hunk of a file when only that one does not apply', async () => {
    await temp.write({ 'a.txt': ORIGINAL['a.txt'] ?? '' });
    const patch = [
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -2,3 +2,3 @@',
      ' a line 2',
      '-a line 3',
      '+a line three',
      ' a line 4',
      '@@ -20,3 +20,3 @@',
      ' a line 20',
      '-a line 21 ',
      '+a line 21!',
      ' a line 22',
      '',
    ].join('\n');
    const result = await callTool(runtime, 'patch_file', { patch });
    expect(textOf(result)).toContain(
      'Hunk 2 of 2 for a.txt (@@ -20,3 +20,3 @@) does not apply: line 21 of the file is "a line 21", where the hunk expects "a line 21 ".',
    );
    expect(await readFile(join(temp.workspace, 'a.txt'), 'utf8')).toBe(ORIGINAL['a.txt']);
  });

  it('places a hunk whose line numbers are off, by its exact context', async () => {
    await temp.write({ 'a.txt': ORIGINAL['a.txt'] ?? '' });
    const patch =
      '--- a/a.txt\n+++ b/a.txt\n@@ -14,3 +14,3 @@\n a line 9\n-a line 10\n+ten\n a line 11\n';
    const result = await callTool(runtime, 'patch_file', { patch });
    expect(result.status).toBe('ok');
    expect(await readFile(join(temp.workspace, 'a.txt'), 'utf8')).toBe(
      ORIGINAL['a.txt']?.replace('a line 10\n', 'ten\n'),
    );
  });

  it('puts back the files it wrote when a later write fails', async () => {
    await temp.write({ 'a.txt': 'one\n' });
    // A valid name whose temporary file name (18 characters longer) is too long.
    const long = `${'n'.repeat(245)}.txt`;
    const patch = `--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n--- /dev/null\n+++ b/${long}\n@@ -0,0 +1 @@\n+x\n`;
    const result = await callTool(runtime, 'patch_file', { patch });
    expect(result.status).toBe('error');
    expect(textOf(result)).toMatch(
      new RegExp(
        `^Tool "patch_file" failed: Writing ${long} failed: .*too long.* The 1 file written before it was put back as it was\\.$`,
      ),
    );
    expect(await readFile(join(temp.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await readdir(temp.workspace)).toEqual(['a.txt']);
  });

  it('keys each file the diff names, so a read of one of them waits and others do not', async () => {
    const { diff } = await gitDiff();
    const plan = await runtime.plan([
      { id: 'p', name: 'patch_file', arguments: { patch: diff } },
      { id: 'r1', name: 'read_file', arguments: { path: 'src/b.ts' } },
      { id: 'r2', name: 'read_file', arguments: { path: 'keep.txt' } },
      { id: 'r3', name: 'read_file', arguments: { path: './renamed.txt' } },
    ]);
    expect(plan[0]?.resourceKeys).toEqual([
      'file:a.txt',
      'file:gone.txt',
      'file:old.txt',
      'file:renamed.txt',
      'file:src/b.ts',
      'file:src/new/c.ts',
    ]);
    expect(plan.map((entry) => entry.waitsFor)).toEqual([[], ['p'], [], ['p']]);
  });

  it('is allowed by a rule on keys only when every file it names matches', async () => {
    await temp.write({ 'src/a.ts': 'one\n', 'b.txt': 'one\n' });
    const guarded = createRuntime({
      tools: createWorkspaceTools({ workspace: temp.workspace }),
      mode: 'auto',
      rules: [{ tool: 'patch_file', key: 'file:src/**', decision: 'allow' }],
    });
    const hunk = (path: string) => `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-one\n+two\n`;
    expect((await callTool(guarded, 'patch_file', { patch: hunk('src/a.ts') })).status).toBe('ok');
    const both = await callTool(guarded, 'patch_file', { patch: hunk('src/a.ts') + hunk('b.txt') });
    expect(both.status).toBe('denied');
    expect(await readFile(join(temp.workspace, 'b.txt'), 'utf8')).toBe('one\n');
  });

  it('refuses a malformed patch before running, saying what is wrong', async () => {
    await temp.write({ 'a.txt': 'one\n' });
    const result = await callTool(runtime, 'patch_file', {
      patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-one\n+two\n',
    });
    expect(result.status).toBe('error');
    expect(textOf(result)).toMatch(
      /could not derive the keys of this call: The patch is not a unified diff patch_file can read: .*counts must equal/,
    );
    expect(await readFile(join(temp.workspace, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('refuses a patch of more than 1000 files before keying them', async () => {
    const part = (i: number) => `--- /dev/null\n+++ b/f${i}.txt\n@@ -0,0 +1 @@\n+x\n`;
    const patch = Array.from({ length: 1001 }, (_, i) => part(i)).join('');
    const result = await callTool(runtime, 'patch_file', { patch });
    expect(textOf(result)).toContain('it has 1001 file parts, more than 1000; split it');
    expect(await readdir(temp.workspace)).toEqual([]);
  });

  it('refuses paths outside the workspace and hintgate state, writing nothing', async () => {
    await temp.write({ 'a.txt': 'one\n' });
    const outside = await callTool(runtime, 'patch_file', {
      patch:
        '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n--- /dev/null\n+++ b/../evil.txt\n@@ -0,0 +1 @@\n+x\n',
    });
    expect(textOf(outside)).toContain('Refused: "../evil.txt" leads out of the workspace');
    const state = await callTool(runtime, 'patch_file', {
      patch: '--- /dev/null\n+++ b/.hintgate/approvals.json\n@@ -0,0 +1 @@\n+{}\n',
    });
    expect(textOf(state)).toContain("is hintgate's own state/configuration");
    expect(await snapshot(temp.workspace)).toEqual({ 'a.txt': 'one\n' });
    expect(await readdir(temp.outside)).toEqual([]);
  });

  it('refuses to create a file that exists and to change one that does not', async () => {
    await temp.write({ 'a.txt': 'one\n' });
    const create = await callTool(runtime, 'patch_file', {
      patch: '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n',
    });
    expect(textOf(create)).toContain('creates a.txt, which exists already');
    const modify = await callTool(runtime, 'patch_file', {
      patch: '--- a/missing.txt\n+++ b/missing.txt\n@@ -1 +1 @@\n-one\n+two\n',
    });
    expect(textOf(modify)).toContain('changes missing.txt, which does not exist');
  });

  it('keeps CRLF line endings when the hunks are written with LF', async () => {
    await temp.write({ 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
    const result = await callTool(runtime, 'patch_file', {
      patch: '--- a/w.txt\n+++ b/w.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
    });
    expect(result.status).toBe('ok');
    expect(await readFile(join(temp.workspace, 'w.txt'), 'utf8')).toBe('one\r\n2\r\nthree\r\n');
  });
});

describe("patch_file with ak-coder's find/replace form", () => {
  it('applies edits in order, each found exactly once', async () => {
    await temp.write({ 'f.ts': 'const a = 1;\nconst b = 2;\n' });
    const result = await callTool(runtime, 'patch_file', {
      path: 'f.ts',
      patches: [
        { find: 'const a = 1;', replace: 'const a = 10;' },
        { find: 'a = 10;\nconst b', replace: 'a = 10;\nlet b' },
      ],
    });
    expect(textOf(result)).toBe('Patched 1 file: modified f.ts (2 find/replace edits).');
    expect(await readFile(join(temp.workspace, 'f.ts'), 'utf8')).toBe(
      'const a = 10;\nlet b = 2;\n',
    );
  });

  it('changes nothing when one edit finds its text twice', async () => {
    await temp.write({ 'f.ts': 'x;\ny;\ny;\n' });
    const result = await callTool(runtime, 'patch_file', {
      path: 'f.ts',
      patches: [
        { find: 'x;', replace: 'z;' },
        { find: 'y;', replace: 'w;' },
      ],
    });
    expect(textOf(result)).toContain('Patch 2 of 2 for f.ts: the text to find occurs 2 times');
    expect(await readFile(join(temp.workspace, 'f.ts'), 'utf8')).toBe('x;\ny;\ny;\n');
  });

  it('wants one form or the other', async () => {
    const both = await callTool(runtime, 'patch_file', {
      patch: '--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n',
      path: 'a',
      patches: [{ find: 'a', replace: 'b' }],
    });
    expect(textOf(both)).toContain('not both');
    const neither = await callTool(runtime, 'patch_file', { path: 'a' });
    expect(textOf(neither)).toContain('Give patch (a unified diff), or path together with patches');
  });
});
