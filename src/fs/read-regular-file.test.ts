import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegularFileError, readRegularFile } from './read-regular-file.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-read-regular-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const refusal = async (path: string, maxBytes = 1024): Promise<RegularFileError> => {
  const error = await readRegularFile(path, { maxBytes }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RegularFileError);
  return error as RegularFileError;
};

describe('readRegularFile', () => {
  it('reads a regular file, through a symbolic link too, with its fstat', async () => {
    await writeFile(join(dir, 'a.yaml'), 'mode: ask\n');
    await symlink(join(dir, 'a.yaml'), join(dir, 'link.yaml'));
    const read = await readRegularFile(join(dir, 'link.yaml'), { maxBytes: 100 });
    expect(read.text).toBe('mode: ask\n');
    expect(read.stats.isFile()).toBe(true);
    expect(read.stats.size).toBe(10n);
  });

  it('reads a file of some megabytes whole and exactly, multi-byte characters included', async () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `line ${i} é€😀\n`).join('');
    await writeFile(join(dir, 'big.lock'), text);
    const read = await readRegularFile(join(dir, 'big.lock'), { maxBytes: 16 * 1024 * 1024 });
    expect(read.text === text).toBe(true);
    expect(read.bytes.length).toBe(Buffer.byteLength(text));
  });

  it('accepts a file of exactly maxBytes and refuses one byte more, naming the limit', async () => {
    await writeFile(join(dir, 'ok'), 'x'.repeat(1024));
    expect((await readRegularFile(join(dir, 'ok'), { maxBytes: 1024 })).text).toHaveLength(1024);
    await writeFile(join(dir, 'big'), 'x'.repeat(1025));
    const error = await refusal(join(dir, 'big'));
    expect(error.problem).toBe('too_large');
    expect(error.message).toBe(
      `${join(dir, 'big')}: it is 1025 bytes, more than the limit of 1 KiB`,
    );
  });

  it.runIf(process.platform === 'linux')(
    'refuses /dev/zero and /dev/urandom as devices without reading them',
    async () => {
      for (const device of ['/dev/zero', '/dev/urandom']) {
        const error = await refusal(device, 512 * 1024 * 1024);
        expect(error.problem).toBe('special');
        expect(error.message).toContain('a character device, not a regular file');
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    'reads at most maxBytes + 1 bytes of a file that claims size 0 (/proc)',
    async () => {
      const error = await refusal('/proc/self/maps', 16);
      expect(error.problem).toBe('too_large');
      expect(error.message).toContain('more than 16 bytes');
    },
  );

  it.runIf(process.platform !== 'win32')(
    'refuses a FIFO with no writer at once instead of hanging',
    async () => {
      const fifo = join(dir, 'config.fifo');
      execFileSync('mkfifo', [fifo]);
      const error = await refusal(fifo);
      expect(error.problem).toBe('special');
      expect(error.message).toContain('a FIFO (named pipe), not a regular file');
    },
    10_000,
  );

  it('refuses a directory, a missing file and a loop of symbolic links, in words', async () => {
    await mkdir(join(dir, 'sub'));
    expect((await refusal(join(dir, 'sub'))).problem).toBe('directory');
    expect((await refusal(join(dir, 'nope'))).problem).toBe('missing');
    await symlink(join(dir, 'loop-b'), join(dir, 'loop-a'));
    await symlink(join(dir, 'loop-a'), join(dir, 'loop-b'));
    const loop = await refusal(join(dir, 'loop-a'));
    expect(loop.problem).toBe('unreadable');
    expect(loop.message).toContain('loop of symbolic links');
    expect(loop.message).not.toMatch(/ELOOP/);
  });
});
