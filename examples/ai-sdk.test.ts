import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('examples/ai-sdk.ts', () => {
  it('runs: reads at once, the write after its approval through the AI SDK, the system prompt sent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hintgate-ai-sdk-example-'));
    try {
      await writeFile(join(dir, 'a.txt'), 'old');
      await writeFile(join(dir, 'b.txt'), 'bee');
      const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [tsx, '--tsconfig', join(root, 'tsconfig.json'), join(root, 'examples', 'ai-sdk.ts')],
        { cwd: dir },
      );
      expect(stdout.trim().split('\n')).toEqual([
        'c1 ok [{"type":"text","text":"old"}]',
        'c3 ok [{"type":"text","text":"bee"}]',
        'c2 asks: mode ask asks before every call that changes something; a write call (readOnlyHint: false, destructiveHint: false)',
        'c2 {"type":"text","value":"{\\"written\\":\\"a.txt\\"}"}',
        'a.txt now says "new".',
        'system prompt sent: true',
      ]);
      expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('new');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
