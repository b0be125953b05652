import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callLocks } from './call-locks.js';
import { type Lock, type LockMode, locksConflict } from './lock-mode.js';
import { planWaits } from './plan-waits.js';

const lock = (node: string, mode: LockMode): Lock => ({ node, label: node, mode });

describe('planWaits', () => {
  it('plans [READ, READ, WRITE(a), WRITE(b), READ(a)] from the call locks', () => {
    const locks = (id: string, cls: 'read' | 'write', key?: string) => ({
      id,
      locks: callLocks({
        origin: 'local',
        class: cls,
        openWorld: false,
        resourceKeys: key === undefined ? [] : [`file:${key}`],
      }),
    });
    const waits = planWaits([
      locks('r1', 'read'),
      locks('r2', 'read'),
      locks('wa', 'write', 'a'),
      locks('wb', 'write', 'b'),
      locks('ra', 'read', 'a'),
    ]);
    expect(waits.map((ids) => [...ids].sort())).toEqual([
      [],
      [],
      ['r1', 'r2'],
      ['r1', 'r2'],
      ['wa'],
    ]);
  });

  it('lists every earlier conflicting call, even one already implied through another', () => {
    const waits = planWaits([
      { id: 'w1', locks: [lock('n', 'X')] },
      { id: 'w2', locks: [lock('n', 'X')] },
      { id: 'w3', locks: [lock('n', 'X')] },
    ]);
    expect(waits.map((ids) => [...ids].sort())).toEqual([[], ['w1'], ['w1', 'w2']]);
  });

  it('is empty for no calls', () => {
    expect(planWaits([])).toEqual([]);
  });

  it('matches pairwise lock conflicts with every earlier call, for random batches', () => {
    const lockArb = fc.record({
      node: fc.constantFrom('n1', 'n2', 'n3', 'n4'),
      label: fc.constant(''),
      mode: fc.constantFrom<LockMode>('IS', 'IX', 'S', 'X'),
    });
    fc.assert(
      fc.property(fc.array(fc.array(lockArb, { maxLength: 4 }), { maxLength: 12 }), (lockLists) => {
        const calls = lockLists.map((locks, index) => ({ id: `c${index}`, locks }));
        const expected = calls.map((call, j) =>
          calls
            .slice(0, j)
            .filter((earlier) => locksConflict(earlier.locks, call.locks))
            .map((earlier) => earlier.id)
            .sort(),
        );
        expect(planWaits(calls).map((ids) => [...ids].sort())).toEqual(expected);
      }),
    );
  });
});
