import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTempWorkspace } from './create-temp-workspace.js';

describe('createTempWorkspace', () => {
  it('writes nested files inside, keeps a sibling outside, and removes both', async () => {
    const made = await createTempWorkspace({ files: { 'src/a.ts': 'one' } });
    await made.write({ 'b.txt': 'two' });
    expect(await readFile(join(made.workspace, 'src', 'a.ts'), 'utf8')).toBe('one');
    expect(await made.read('b.txt')).toBe('two');
    expect(join(made.outside, '..')).toBe(join(made.workspace, '..'));
    await made.remove();
    await made.remove();
    await expect(access(made.workspace)).rejects.toThrow();
    await expect(access(made.outside)).rejects.toThrow();
  });

  it('refuses paths that leave the workspace, saying what to give', async () => {
    const made = await createTempWorkspace();
    try {
      await expect(made.write({ '../outside/x': 'no' })).rejects.toThrow(/relative path/);
      await expect(made.write({ '/etc/x': 'no' })).rejects.toThrow(/inside the workspace/);
    } finally {
      await made.remove();
    }
  });
});
