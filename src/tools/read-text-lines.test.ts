import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTextLines } from './read-text-lines.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-read-lines-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const options = { offset: 1, limit: 10, maxChars: 1000 };

describe('readTextLines', () => {
  it('reads the numbered lines of a text file', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
    expect((await readTextLines(join(dir, 'a.txt'), options)).lines).toHaveLength(2);
  });

  it.runIf(process.platform !== 'win32')(
    'refuses a FIFO at once instead of waiting for a writer',
    async () => {
      const fifo = join(dir, 'swapped.txt');
      execFileSync('mkfifo', [fifo]);
      await expect(readTextLines(fifo, options)).rejects.toThrow(/not a regular file/);
    },
    10_000,
  );
});
