import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callLocks } from './call-locks.js';
import { type MemoLockInput, memoCallLocks } from './memo-call-locks.js';

/** Keys built from pieces that include the separators a joined spelling would confuse. */
const key = fc
  .array(fc.constantFrom('file:', 'a', 'b', '/', '\u0000', '"', ',', '[', ']', '1', 'x:'), {
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

const input: fc.Arbitrary<MemoLockInput> = fc.record({
  origin: fc.constantFrom('local', 'fs', 'fs\u0000w', 'w'),
  class: fc.constantFrom('read', 'write', 'destructive'),
  openWorld: fc.boolean(),
  resourceKeys: fc.array(key, { maxLength: 3 }),
});

describe('memoCallLocks', () => {
  it('gives the locks callLocks gives, for any mix of inputs asked in any order', () => {
    fc.assert(
      fc.property(
        fc.array(input, { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (inputs, serialize) => {
          const memo = memoCallLocks({ serializeOpenWorldWrites: serialize, limit: 8 });
          // Each input twice: the second answer comes from the memory.
          for (const one of [...inputs, ...inputs]) {
            expect(memo(one)).toStrictEqual(
              callLocks({ ...one, serializeOpenWorldWrites: serialize }),
            );
          }
        },
      ),
    );
  });

  it('tells apart one key that holds a separator from two keys', () => {
    const memo = memoCallLocks();
    const one = memo({ origin: 'o', class: 'write', openWorld: false, resourceKeys: ['a","b'] });
    const two = memo({ origin: 'o', class: 'write', openWorld: false, resourceKeys: ['a', 'b'] });
    expect(one).not.toStrictEqual(two);
    expect(two).toStrictEqual(
      callLocks({ origin: 'o', class: 'write', openWorld: false, resourceKeys: ['a', 'b'] }),
    );
  });

  it('answers a repeated call with the same locks from its second time, and starts over past its limit', () => {
    const memo = memoCallLocks({ limit: 2 });
    const first = { origin: 'o', class: 'read', openWorld: false, resourceKeys: ['k:1'] } as const;
    const once = memo(first);
    const locks = memo(first);
    expect(locks).toStrictEqual(once);
    expect(memo(first)).toBe(locks);
    for (const key of ['k:2', 'k:2', 'k:3', 'k:3']) memo({ ...first, resourceKeys: [key] });
    expect(memo(first)).not.toBe(locks);
    expect(memo(first)).toStrictEqual(locks);
  });
});
