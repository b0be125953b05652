import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import { createGlobTool } from './create-glob-tool.js';
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
    '.gitignore': 'dist/\n*.log\n!keep.log\n',
    'src/a.ts': '',
    'src/b.js': '',
    'src/gen/.gitignore': '*.ts\n!index.ts\n',
    'src/gen/out.ts': '',
    'src/gen/index.ts': '',
    'dist/bundle.ts': '',
    'debug.log': '',
    'keep.log': '',
    '.git/HEAD': 'ref: x',
    '.git/info/exclude': 'secret.ts\n',
    'secret.ts': '',
    'top.ts': '',
    'node_modules/pkg/x.ts': '',
  });
});
afterEach(() => temp.remove());

const glob = (args: Record<string, unknown>) =>
  callTool(toolRuntime({ workspace: temp.workspace }), 'glob', args);

describe('glob', () => {
  it('honours root and nested .gitignore files, negations, .git/info/exclude, and skips .git', async () => {
    const text = textOf(await glob({ pattern: '**/*.ts' }));
    expect(text.split('\n')).toEqual([
      'node_modules/pkg/x.ts',
      'src/a.ts',
      'src/gen/index.ts',
      'top.ts',
    ]);
    expect(textOf(await glob({ pattern: '**/*.log' }))).toBe('keep.log');
    expect(textOf(await glob({ pattern: '**/HEAD' }))).toContain('No files match');
  });

  it("starts at the pattern's literal directory and at path, printing workspace-relative paths", async () => {
    expect(textOf(await glob({ pattern: 'src/*.{ts,js}' }))).toBe('src/a.ts\nsrc/b.js');
    expect(textOf(await glob({ pattern: '*.ts', path: 'src' }))).toBe('src/a.ts');
    // An explicitly named ignored directory is searched.
    expect(textOf(await glob({ pattern: '*.ts', path: 'dist' }))).toBe('dist/bundle.ts');
  });

  it('hints at ** when a pattern without "/" finds nothing at the top', async () => {
    const text = textOf(await glob({ pattern: '*.js' }));
    expect(text).toContain('try "**/*.js"');
  });

  it('caps the results and says how many were left out', async () => {
    await temp.write(
      Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`many/f${i}.txt`, ''])),
    );
    const runtime = createRuntime({
      tools: [createGlobTool({ workspace: temp.workspace, maxListEntries: 10 })],
      mode: 'yolo',
    });
    const text = textOf(await callTool(runtime, 'glob', { pattern: 'many/*.txt' }));
    expect(text.split('\n')).toHaveLength(11);
    expect(text).toContain('[Showing 10 of 25 matching files; 15 more not shown.');
  });

  it('refuses patterns and paths that leave the workspace and does not follow symlinked directories', async () => {
    await temp.write({});
    await symlink(temp.outside, join(temp.workspace, 'out'));
    await callTool(toolRuntime({ workspace: temp.outside }), 'write_file', {
      path: 'o.ts',
      content: '',
    });
    expect(textOf(await glob({ pattern: '../**/*.ts' }))).toContain('Refused: ');
    expect(textOf(await glob({ pattern: '**/*.ts', path: '..' }))).toContain('Refused: ');
    expect(textOf(await glob({ pattern: '/etc/*' }))).toContain('must be a positive glob relative');
    expect(textOf(await glob({ pattern: '**/o.ts' }))).toContain('No files match');
  });
  it("matches a model's backtracking-prone glob against a long file name at once", async () => {
    const long = 'a'.repeat(250);
    await temp.write({ [`deep/${long}`]: '', [`deep/${long}b`]: '' });
    const text = textOf(await glob({ pattern: 'deep/*a*a*a*a*a*a*a*a*a*a*a*a*c' }));
    expect(text).toContain('No files match');
    expect(textOf(await glob({ pattern: 'deep/*a*a*a*a*a*a*a*a*a*a*a*a*b' }))).toBe(
      `deep/${long}b`,
    );
  }, 30_000);

  it('refuses a glob longer than 1024 characters', async () => {
    const text = textOf(await glob({ pattern: `${'*a'.repeat(600)}b` }));
    expect(text).toContain('globs of at most 1024 characters are accepted');
  });
});
