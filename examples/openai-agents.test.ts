import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('examples/openai-agents.ts', () => {
  it('is the example docs/adapters.md shows', async () => {
    const example = await readFile(join(root, 'examples', 'openai-agents.ts'), 'utf8');
    const docs = await readFile(join(root, 'docs', 'adapters.md'), 'utf8');
    expect(docs).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it('runs: asks before the write, runs the reads at once, and hands the model hintgate\'s system prompt', async () => {
    const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [tsx, '--tsconfig', join(root, 'tsconfig.json'), join(root, 'examples', 'openai-agents.ts')],
      { cwd: root },
    );
    expect(stdout.trim().split('\n')).toEqual([
      'approve? write_file {"path":"a.txt","text":"new"}',
      'c1: old',
      'c3: bee',
      'c2: wrote a.txt',
      'a.txt now says "new".',
      'system prompt reached the model: true',
    ]);
  });
});
