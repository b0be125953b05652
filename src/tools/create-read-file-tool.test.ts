import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../runtime/runtime.js';
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

const read = (args: Record<string, unknown>) => callTool(runtime, 'read_file', args);

describe('read_file', () => {
  it('returns the lines with line-number prefixes', async () => {
    await temp.write({ 'src/a.ts': 'const a = 1;\r\nconst b = 2;\n' });
    const result = await read({ path: 'src/a.ts' });
    expect(result.status).toBe('ok');
    expect(textOf(result)).toBe('     1\tconst a = 1;\n     2\tconst b = 2;');
  });

  it('reads a range with offset and limit and says how to read on', async () => {
    await temp.write({ 'n.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') });
    const middle = textOf(await read({ path: 'n.txt', offset: 3, limit: 2 }));
    expect(middle).toContain('     3\tline 3\n     4\tline 4\n');
    expect(middle).toContain('call read_file with offset=5');
    const end = textOf(await read({ path: 'n.txt', offset: 9 }));
    expect(end).toBe('     9\tline 9\n    10\tline 10\n[End of file: lines 9-10 of 10.]');
    const past = await read({ path: 'n.txt', offset: 11 });
    expect(past.isError).toBe(true);
    expect(textOf(past)).toContain('has 10 lines, so offset 11 is past its end');
  });

  it('caps a 5 MB file below the runtime cap and names the offset that reads on', async () => {
    const line = `${'x'.repeat(99)}\n`;
    await temp.write({ 'huge.txt': line.repeat(50_000) }); // 5,000,000 bytes
    const result = await read({ path: 'huge.txt' });
    expect(result.status).toBe('ok');
    expect(result.truncated).toBeUndefined();
    const text = textOf(result);
    expect(text.length).toBeLessThanOrEqual(20_500);
    const next = /offset=(\d+)/.exec(text)?.[1];
    expect(text).toContain('5000000 bytes in all');
    const again = textOf(await read({ path: 'huge.txt', offset: Number(next) }));
    expect(again.startsWith(`${String(next).padStart(6)}\t`)).toBe(true);
    // Far into the file, without holding it.
    expect(textOf(await read({ path: 'huge.txt', offset: 49_999 }))).toContain(
      '[End of file: lines 49999-50000 of 50000.]',
    );
  });

  it('cuts a single very long line with a note', async () => {
    await temp.write({ 'min.js': 'y'.repeat(1_000_000) });
    const text = textOf(await read({ path: 'min.js' }));
    expect(text).toContain('[line cut: 1000000 characters in all]');
    expect(text.length).toBeLessThan(3000);
  });

  it('refuses binary files', async () => {
    await temp.write({ 'img.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]) });
    const result = await read({ path: 'img.png' });
    expect(result.status).toBe('error');
    expect(textOf(result)).toContain('img.png is a binary file (8 bytes)');
  });

  it('explains missing files, directories and empty files', async () => {
    await temp.write({ 'd/x': 'x', 'empty.txt': '' });
    expect(textOf(await read({ path: 'nope.txt' }))).toContain('"nope.txt" does not exist');
    expect(textOf(await read({ path: 'd' }))).toContain(
      '"d" is a directory; list it with list_directory',
    );
    expect(textOf(await read({ path: 'empty.txt' }))).toBe('(empty.txt is empty.)');
  });

  it('refuses traversal, outside absolute paths and symlink escapes', async () => {
    await writeFile(join(temp.outside, 'secret.txt'), 'TOP SECRET');
    await symlink(join(temp.outside, 'secret.txt'), join(temp.workspace, 'link.txt'));
    await symlink(temp.outside, join(temp.workspace, 'linkdir'));
    for (const path of [
      '../outside/secret.txt',
      'a/../../outside/secret.txt',
      join(temp.outside, 'secret.txt'),
      'link.txt',
      'linkdir/secret.txt',
    ]) {
      const result = await read({ path });
      expect(result.status, path).toBe('error');
      expect(textOf(result), path).toMatch(/Refused: /);
      expect(textOf(result), path).not.toContain('TOP SECRET');
    }
  });
});
