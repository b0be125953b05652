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
