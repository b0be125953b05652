import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from './coalesce-writes.js';

/** A target that records each write it gets, and can be told to ask for `drain`. */
function recorder() {
  const writes: string[] = [];
  const target = new Writable({
    highWaterMark: 8,
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done();
    },
  });
  return { target, writes };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesceWrites', () => {
  it('writes [a, b, c] of one turn in one write at its end, in order, and a later turn in another', async () => {
    const { target, writes } = recorder();
    const stream = coalesceWrites(target);
    expect(stream.write('a\n')).toBe(true);
    stream.write(Buffer.from('b\n'));
    stream.write('c\n');
    expect(writes).toEqual([]);
    await nextTurn();
    stream.write('d\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('never asks its writers to wait, and keeps one drain listener on a target that does', async () => {
    const writes: string[] = [];
    let release: () => void = () => {};
    const target = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString('utf8'));
        release = done;
      },
    });
    const stream = coalesceWrites(target);
    let refused = 0;
    // As the SDK's stdio transport writes: a listener per write that returns false.
    for (let turn = 0; turn < 50; turn += 1) {
      for (let i = 0; i < 40; i += 1) {
        if (!stream.write(`${turn}:${i}:${'x'.repeat(100)}\n`)) {
          refused += 1;
          stream.once('drain', () => {});
        }
      }
      await nextTurn();
      expect(target.listenerCount('drain')).toBeLessThanOrEqual(1);
    }
    expect(refused).toBe(0);
    expect(stream.listenerCount('drain')).toBe(0);
    for (let turn = 0; turn < 200 && writes.join('').split('\n').length <= 2000; turn += 1) {
      const current = release;
      release = () => {};
      current();
      await nextTurn();
    }
    const lines = writes
      .join('')
      .split('\n')
      .filter((line) => line !== '');
    expect(lines).toHaveLength(2000);
    expect(lines[1999]).toMatch(/^49:39:/);
  });

  it('writes what is pending when it is ended, and leaves the target open', async () => {
    const { target, writes } = recorder();
    const stream = coalesceWrites(target);
    stream.write('a\n');
    await new Promise<void>((resolve) => stream.end(resolve));
    expect(writes).toEqual(['a\n']);
    expect(target.writable).toBe(true);
  });

  it('passes an error of the target on to its users', async () => {
    const { target } = recorder();
    const stream = coalesceWrites(target);
    const failed = new Promise<Error>((resolve) => stream.once('error', resolve));
    target.emit('error', new Error('EPIPE: broken pipe'));
    expect((await failed).message).toContain('EPIPE');
  });
});
