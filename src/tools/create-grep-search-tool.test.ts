import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import { createGrepSearchTool } from './create-grep-search-tool.js';
import {
  callTool,
  makeWorkspace,
  type TempWorkspace,
  textOf,
  toolRuntime,
} from './workspace.test-helpers.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
  await temp.write({
    '.gitignore': 'build/\n',
    'src/a.ts': 'const needle = 1;\nconst other = 2;\n',
    'src/b.py': 'NEEDLE = 3\n',
    'src/vendor/.gitignore': 'gen.ts\n',
    'src/vendor/gen.ts': 'needle in generated code\n',
    'build/out.js': 'needle in build output\n',
    'blob.bin': new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1]),
  });
});
afterEach(() => temp.remove());

const grep = (args: Record<string, unknown>) =>
  callTool(toolRuntime({ workspace: temp.workspace }), 'grep_search', args);

describe('grep_search', () => {
  it('reports path:line:text, honouring .gitignore (nested too) and skipping binary files', async () => {
    const text = textOf(await grep({ pattern: 'needle' }));
    expect(text).toBe(
      'src/a.ts:1:const needle = 1;\n[1 matching line in 1 file; 4 files searched, skipped 1 binary.]',
    );
  });

  it('filters by glob and path, and ignores case on request', async () => {
    expect(
      textOf(await grep({ pattern: 'needle', case_insensitive: true, glob: '*.py' })),
    ).toContain('src/b.py:1:NEEDLE = 3');
    expect(textOf(await grep({ pattern: 'other', path: 'src/a.ts' }))).toContain(
      'src/a.ts:2:const other = 2;',
    );
    expect(textOf(await grep({ pattern: 'needle', path: 'build' }))).toContain(
      'build/out.js:1:needle in build output',
    );
  });

  it('caps matches and long lines, and counts what it left out', async () => {
    await temp.write({
      'many.txt': 'hit\n'.repeat(30),
      'long.txt': `${'a'.repeat(3000)}hit${'b'.repeat(5000)}\n`,
      // Only the first 4,000 characters of a line are searched.
      'far.txt': `${'a'.repeat(4000)}hit\n`,
    });
    const runtime = createRuntime({
      tools: [createGrepSearchTool({ workspace: temp.workspace, maxMatches: 10 })],
      mode: 'yolo',
    });
    const text = textOf(await callTool(runtime, 'grep_search', { pattern: 'hit', path: '.' }));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^long\.txt:1:…a+hitb+…$/);
    expect(lines[0]?.length).toBeLessThan(330);
    expect(lines).toHaveLength(11);
    expect(text).toContain('[Showing 10 of 31 matching lines (in 2 files;');
  });

  it('says when nothing matched and rejects invalid expressions with a hint', async () => {
    expect(textOf(await grep({ pattern: 'absent' }))).toContain('No matches for /absent/');
    const bad = await grep({ pattern: 'foo(' });
    expect(bad.status).toBe('error');
    expect(textOf(bad)).toContain('not a valid JavaScript regular expression');
  });

  it('does not search outside the workspace', async () => {
    await callTool(toolRuntime({ workspace: temp.outside }), 'write_file', {
      path: 'o.txt',
      content: 'needle outside',
    });
    await symlink(temp.outside, join(temp.workspace, 'out'));
    await symlink(join(temp.outside, 'o.txt'), join(temp.workspace, 'o-link.txt'));
    expect(textOf(await grep({ pattern: 'outside' }))).toContain('No matches');
    expect(textOf(await grep({ pattern: 'needle', path: '../outside' }))).toContain('Refused: ');
  });

  describe('with a pattern that backtracks catastrophically', () => {
    const CATASTROPHIC = '^(a+)+$';
    beforeEach(() => temp.write({ 'a-ok.txt': 'aaaa\n', 'b-slow.txt': `${'a'.repeat(40)}!\n` }));

    it('times out with the runtime while the event loop keeps running', async () => {
      const runtime = createRuntime({
        tools: [createGrepSearchTool({ workspace: temp.workspace })],
        mode: 'yolo',
        defaultTimeoutMs: 1_000,
        retry: { attempts: 1 },
      });
      let last = Date.now();
      let longestGap = 0;
      const ticker = setInterval(() => {
        longestGap = Math.max(longestGap, Date.now() - last);
        last = Date.now();
      }, 20);
      const started = Date.now();
      try {
        const result = await callTool(runtime, 'grep_search', { pattern: CATASTROPHIC });
        expect(result.status).toBe('timeout');
      } finally {
        clearInterval(ticker);
      }
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(longestGap).toBeLessThan(500);
      // The server stays usable: the next search answers at once.
      const next = await callTool(runtime, 'grep_search', { pattern: 'needle' });
      expect(textOf(next)).toContain('src/a.ts:1:const needle = 1;');
    });

    it('returns what it found when its own time budget runs out', async () => {
      const runtime = createRuntime({
        tools: [createGrepSearchTool({ workspace: temp.workspace, searchTimeoutMs: 500 })],
        mode: 'yolo',
      });
      const started = Date.now();
      const result = await callTool(runtime, 'grep_search', { pattern: CATASTROPHIC });
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(result.status).toBe('ok');
      const text = textOf(result);
      expect(text).toContain('a-ok.txt:1:aaaa');
      expect(text).toContain('[The search stopped after 500 ms, so results may be incomplete');
    });

    it('stops when the call is cancelled', async () => {
      const tool = createGrepSearchTool({ workspace: temp.workspace });
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error('cancelled by test')), 300);
      const started = Date.now();
      await expect(
        tool.execute(
          { pattern: CATASTROPHIC },
          { signal: controller.signal, callId: 't', attempt: 1 },
        ),
      ).rejects.toThrow('cancelled by test');
      clearTimeout(timer);
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  });
  it("filters files by a model's backtracking-prone glob against a long name at once", async () => {
    const long = 'a'.repeat(250);
    await temp.write({ [`deep/${long}`]: 'needle\n' });
    const text = textOf(await grep({ pattern: 'needle', glob: '*a*a*a*a*a*a*a*a*a*a*a*a*c' }));
    expect(text).toContain('No matches');
    const found = textOf(await grep({ pattern: 'needle', glob: '*a*a*a*a*a*a*a*a*a*a*a*a' }));
    expect(found).toContain(`deep/${long}:1:needle`);
  }, 30_000);
});
