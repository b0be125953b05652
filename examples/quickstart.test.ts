import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('examples/quickstart.ts', () => {
  it('is the example the README shows', async () => {
    const example = await readFile(join(root, 'examples', 'quickstart.ts'), 'utf8');
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it('runs: reads before the write of the same file, and returns results in call order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hintgate-quickstart-'));
    try {
      await writeFile(join(dir, 'a.txt'), 'old');
      await writeFile(join(dir, 'b.txt'), 'bee');
      const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [tsx, '--tsconfig', join(root, 'tsconfig.json'), join(root, 'examples', 'quickstart.ts')],
        { cwd: dir },
      );
      expect(stdout.trim().split('\n')).toEqual([
        'c1 ok [{"type":"text","text":"old"}]',
        'c2 ok [{"type":"text","text":"{\\"written\\":\\"a.txt\\"}"}]',
        'c3 ok [{"type":"text","text":"bee"}]',
      ]);
      expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('new');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
