import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ToolCall } from '../runtime/tool-call.js';
import { createWorkspaceTools, WORKSPACE_TOOL_NAMES } from './create-workspace-tools.js';
import {
  makeWorkspace,
  type TempWorkspace,
  textOf,
  toolRuntime,
} from './workspace.test-helpers.js';

let temp: TempWorkspace;
let runtime: Runtime;
beforeEach(async () => {
  temp = await makeWorkspace();
  await temp.write({
    'a.txt': 'alpha\n',
    'b.txt': 'beta\n',
    'src/x.ts': 'export const x = 1;\n',
    'docs/d.md': '# d\n',
  });
  runtime = toolRuntime({ workspace: temp.workspace });
});
afterEach(() => temp.remove());

const at = <T>(list: readonly T[], index: number): T => {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
};

let ids = 0;
const call = (name: string, args: Record<string, unknown>): ToolCall => ({
  id: `c${++ids}`,
  name,
  arguments: args,
});
/** `waitsFor` of each call, by position in the batch (ids made positional). */
const waits = async (calls: ToolCall[]): Promise<number[][]> => {
  const plan = await runtime.plan(calls);
  return plan.map((entry) => entry.waitsFor.map((id) => calls.findIndex((c) => c.id === id)));
};

describe('createWorkspaceTools', () => {
  it('declares honest annotations', () => {
    const hints = Object.fromEntries(
      createWorkspaceTools({ workspace: temp.workspace }).map((tool) => {
        const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
        return [tool.name, [readOnlyHint, destructiveHint, idempotentHint, openWorldHint]];
      }),
    );
    expect(hints).toEqual({
      read_file: [true, false, true, false],
      write_file: [false, true, true, false],
      edit_file: [false, true, false, false],
      list_directory: [true, false, true, false],
      glob: [true, false, true, false],
      grep_search: [true, false, true, false],
      run_command: [false, true, false, true],
      web_fetch: [true, false, true, true],
      patch_file: [false, true, false, false],
      index_workspace: [false, false, true, false],
      semantic_search: [true, false, true, false],
      str_replace: [false, true, false, false],
      bash: [false, true, false, true],
    });
    expect(Object.keys(hints)).toEqual([...WORKSPACE_TOOL_NAMES]);
  });

  it('offers only the read-only tools in plan mode', () => {
    const planning = createRuntime({
      tools: createWorkspaceTools({ workspace: temp.workspace }),
      mode: 'plan',
    });
    expect(planning.listTools().map((t) => t.name)).toEqual([
      'glob',
      'grep_search',
      'list_directory',
      'read_file',
      'semantic_search',
      'web_fetch',
    ]);
  });

  it('rejects a workspace that does not exist', () => {
    expect(() => createWorkspaceTools({ workspace: join(temp.outside, 'nope') })).toThrow(
      /is not an existing directory/,
    );
  });

  it('runs a mixed batch in call order where it conflicts', async () => {
    const results = await runtime.execute([
      call('write_file', { path: 'notes/n.md', content: 'todo: one\n' }),
      call('edit_file', { path: 'notes/n.md', old_string: 'one', new_string: 'two' }),
      call('read_file', { path: 'notes/n.md' }),
      call('grep_search', { pattern: 'todo' }),
      call('glob', { pattern: '**/*.md' }),
      call('run_command', { command: 'cat notes/n.md' }),
      call('list_directory', { path: 'notes' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(textOf(at(results, 2))).toBe('     1\ttodo: two');
    expect(textOf(at(results, 3))).toContain('notes/n.md:1:todo: two');
    expect(textOf(at(results, 4))).toBe('docs/d.md\nnotes/n.md');
    expect(textOf(at(results, 5))).toContain('todo: two');
    expect(await readFile(join(temp.workspace, 'notes/n.md'), 'utf8')).toBe('todo: two\n');
  });
});

describe('scheduling of the workspace tools', () => {
  it('overlaps reads: [READ(a), READ(b), LIST(.), GLOB, GREP, FETCH] all start at once', async () => {
    expect(
      await waits([
        call('read_file', { path: 'a.txt' }),
        call('read_file', { path: 'b.txt' }),
        call('list_directory', {}),
        call('glob', { pattern: '**/*.ts' }),
        call('grep_search', { pattern: 'x' }),
        call('web_fetch', { url: 'https://example.com/' }),
      ]),
    ).toEqual([[], [], [], [], [], []]);
  });

  it('orders [WRITE(a), READ(a), READ(b), WRITE(b)]: READ(a) after WRITE(a), WRITE(b) after READ(b)', async () => {
    expect(
      await waits([
        call('write_file', { path: 'a.txt', content: 'new' }),
        call('read_file', { path: './a.txt' }),
        call('read_file', { path: 'b.txt' }),
        call('edit_file', {
          path: join(temp.workspace, 'b.txt'),
          old_string: 'beta',
          new_string: 'gamma',
        }),
      ]),
    ).toEqual([[], [0], [], [2]]);
  });

  it('treats a symlink inside the workspace and its target as one file', async () => {
    await symlink('a.txt', join(temp.workspace, 'alias.txt'));
    expect(
      await waits([
        call('write_file', { path: 'alias.txt', content: 'x' }),
        call('read_file', { path: 'a.txt' }),
      ]),
    ).toEqual([[], [0]]);
  });

  it('orders searches and listings after writes inside them, not elsewhere', async () => {
    expect(
      await waits([
        call('write_file', { path: 'src/y.ts', content: '' }),
        call('glob', { pattern: 'src/**/*.ts' }),
        call('grep_search', { pattern: 'x', path: 'docs' }),
        call('list_directory', {}),
        call('write_file', { path: '.gitignore', content: 'docs/\n' }),
        call('grep_search', { pattern: 'x', path: 'docs' }),
      ]),
    ).toEqual([[], [0], [], [0], [1, 2, 3], [4]]);
  });

  it('orders run_command against every file operation and lets web_fetch pass writes', async () => {
    expect(
      await waits([
        call('read_file', { path: 'a.txt' }),
        call('run_command', { command: 'npm test' }),
        call('read_file', { path: 'b.txt' }),
        call('write_file', { path: 'c.txt', content: '' }),
        call('web_fetch', { url: 'https://example.com/docs' }),
      ]),
    ).toEqual([[], [0], [1], [1], []]);
  });
});

describe('approval keys of the workspace tools', () => {
  it('are the file for file tools, the searched directory for searches, the site for web_fetch', async () => {
    const requests: string[][] = [];
    const asking = createRuntime({
      tools: createWorkspaceTools({ workspace: temp.workspace }),
      mode: 'allowlist',
      approver: (request) => {
        requests.push([request.tool.name, ...request.approvalKeys]);
        return { decision: 'deny' };
      },
    });
    await asking.execute([
      call('write_file', { path: './src/../src/new.ts', content: '' }),
      call('grep_search', { pattern: 'x', path: 'src' }),
      call('glob', { pattern: 'docs/**/*.md' }),
      call('web_fetch', { url: 'https://Example.com/a/b?q=1' }),
      call('run_command', { command: 'git -C src status && npm run build > out.log' }),
    ]);
    expect(requests).toEqual([
      ['write_file', 'file:src/new.ts'],
      ['grep_search', 'file:src'],
      ['glob', 'file:docs'],
      ['web_fetch', 'https://example.com'],
      ['run_command', '> file:out.log', 'git status', 'npm run build'],
    ]);
  });

  it('approve each redirection target on its own', async () => {
    const requests: string[][] = [];
    const asking = createRuntime({
      tools: createWorkspaceTools({ workspace: temp.workspace }),
      mode: 'ask',
      approver: (request) => {
        requests.push([...request.approvalKeys]);
        return { decision: 'allow', remember: 'session' };
      },
    });
    const outside = join(temp.outside, 'fake_bashrc');
    const results = await asking.execute([
      call('run_command', { command: 'echo build > out.txt' }),
      call('run_command', { command: 'echo again > ./out.txt' }),
      call('run_command', { command: `echo x >> ${outside}` }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    // The second call reuses the session approval; the third names another file and asks.
    expect(requests).toEqual([
      ['> file:out.txt', 'echo'],
      [`> ${outside}`, 'echo'],
    ]);
  });
});

describe('policy over the workspace tools', () => {
  it('asks for file writes in auto mode unless an allow rule covers the path', async () => {
    const auto = createRuntime({
      tools: createWorkspaceTools({ workspace: temp.workspace }),
      mode: 'auto',
      rules: [{ tool: '{write_file,edit_file}', key: 'file:src/**', decision: 'allow' }],
    });
    const results = await auto.execute([
      call('write_file', { path: 'src/ok.ts', content: 'ok' }),
      call('write_file', { path: 'README.md', content: 'no' }),
      call('read_file', { path: 'a.txt' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'denied', 'ok']);
  });
});
