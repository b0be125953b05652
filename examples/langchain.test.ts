import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('examples/langchain.ts', () => {
  it('is the example the README shows', async () => {
    const example = await readFile(join(root, 'examples', 'langchain.ts'), 'utf8');
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it('runs with the scripted model: asks about the write, then runs the three calls in order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hintgate-langchain-example-'));
    try {
      await writeFile(join(dir, 'a.txt'), 'old');
      await writeFile(join(dir, 'b.txt'), 'bee');
      const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [tsx, '--tsconfig', join(root, 'tsconfig.json'), join(root, 'examples', 'langchain.ts')],
        { cwd: dir },
      );
      expect(stdout.trim().split('\n')).toEqual([
        'asks: c2 write_file',
        'c1 success old',
        'c2 success {"written":"a.txt"}',
        'c3 success bee',
        'system prompt sent: true',
      ]);
      expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('new');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
