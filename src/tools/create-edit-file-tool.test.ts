import { readFile, symlink, writeFile } from 'node:fs/promises';
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

const edit = (args: Record<string, unknown>) =>
  callTool(runtime, 'edit_file', { path: 'a.ts', ...args });
const content = () => readFile(join(temp.workspace, 'a.ts'), 'utf8');

describe('edit_file', () => {
  it('replaces exactly one occurrence, literally (no $& patterns)', async () => {
    await temp.write({ 'a.ts': 'let x = 1;\nlet y = 2;\n' });
    const result = await edit({ old_string: 'let y = 2;', new_string: "let y = '$&';" });
    expect(textOf(result)).toBe('Edited a.ts: replaced 1 occurrence (line 2).');
    expect(await content()).toBe("let x = 1;\nlet y = '$&';\n");
  });

  it('fails on zero matches and changes nothing', async () => {
    await temp.write({ 'a.ts': 'let x = 1;\n' });
    const result = await edit({ old_string: 'let z', new_string: 'let w' });
    expect(result.status).toBe('error');
    expect(textOf(result)).toContain('old_string was not found in a.ts, so nothing was changed');
    const prefixed = await edit({ old_string: '     1\tlet x', new_string: 'let w' });
    expect(textOf(prefixed)).toContain('line-number prefixes');
    expect(await content()).toBe('let x = 1;\n');
  });

  it('answers at once for a megabyte old_string that is not found (the prefix hint is linear)', async () => {
    await temp.write({ 'a.ts': 'let x = 1;\n' });
    for (const old_string of ['\n'.repeat(1_000_000), `${' \n'.repeat(500_000)}1x`]) {
      const result = await edit({ old_string, new_string: 'y' });
      expect(textOf(result)).toContain('old_string was not found in a.ts');
      expect(textOf(result)).not.toContain('line-number prefixes');
    }
    const prefixed = await edit({
      old_string: `${'\n'.repeat(1_000_000)}  7\tlet`,
      new_string: 'y',
    });
    expect(textOf(prefixed)).toContain('line-number prefixes');
  }, 60_000);

  it('fails on several matches with their count and lines, unless replace_all', async () => {
    await temp.write({ 'a.ts': 'foo();\nbar();\nfoo();\nfoo();\n' });
    const result = await edit({ old_string: 'foo()', new_string: 'baz()' });
    expect(result.status).toBe('error');
    expect(textOf(result)).toContain('old_string occurs 3 times in a.ts (lines 1, 3, 4)');
    expect(await content()).toBe('foo();\nbar();\nfoo();\nfoo();\n');
    const all = await edit({ old_string: 'foo()', new_string: 'baz()', replace_all: true });
    expect(textOf(all)).toBe('Edited a.ts: replaced 3 occurrences (lines 1, 3, 4).');
    expect(await content()).toBe('baz();\nbar();\nbaz();\nbaz();\n');
  });

  it('matches an LF old_string in a CRLF file and keeps CRLF', async () => {
    await temp.write({ 'a.ts': 'a\r\nb\r\nc\r\n' });
    await edit({ old_string: 'a\nb', new_string: 'A\nB' });
    expect(await content()).toBe('A\r\nB\r\nc\r\n');
  });

  it('refuses missing files, identical strings, binary files and escapes', async () => {
    expect(textOf(await edit({ old_string: 'a', new_string: 'b' }))).toContain(
      '"a.ts" does not exist',
    );
    await temp.write({ 'a.ts': 'a', 'bin.dat': new Uint8Array([1, 0, 2]) });
    expect(textOf(await edit({ old_string: 'a', new_string: 'a' }))).toContain('the same');
    expect(
      textOf(
        await callTool(runtime, 'edit_file', { path: 'bin.dat', old_string: 'x', new_string: 'y' }),
      ),
    ).toContain('not a UTF-8 text file');
    await writeFile(join(temp.outside, 'o.txt'), 'secret');
    await symlink(join(temp.outside, 'o.txt'), join(temp.workspace, 'o.txt'));
    const escaped = await callTool(runtime, 'edit_file', {
      path: 'o.txt',
      old_string: 'secret',
      new_string: 'x',
    });
    expect(textOf(escaped)).toContain('Refused: ');
    expect(await readFile(join(temp.outside, 'o.txt'), 'utf8')).toBe('secret');
  });
});
