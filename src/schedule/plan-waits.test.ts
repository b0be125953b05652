import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callLocks } from './call-locks.js';
import { LockManager } from './lock-manager.js';
import { type Lock, type LockMode, locksConflict } from './lock-mode.js';
import { planWaits } from './plan-waits.js';
import { WaitPlanner } from './wait-planner.js';

const lock = (node: string, mode: LockMode): Lock => ({ node, label: node, mode });

/** What the lock manager lists as each call's waits when the calls are admitted in order. */
function admittedWaits(calls: ReadonlyArray<{ id: string; locks: readonly Lock[] }>): string[][] {
  const manager = new LockManager();
  const order = new Map(calls.map((call, index) => [call.id, index]));
  return calls.map((call) =>
    [...manager.admit(call.id, call.locks, () => {}).waitsFor].sort(
      (a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0),
    ),
  );
}

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

  it('lists only the direct waits: [WRITE(n), WRITE(n), WRITE(n)] is a chain', () => {
    const waits = planWaits([
      { id: 'w1', locks: [lock('n', 'X')] },
      { id: 'w2', locks: [lock('n', 'X')] },
      { id: 'w3', locks: [lock('n', 'X')] },
    ]);
    expect(waits).toEqual([[], ['w1'], ['w2']]);
  });

  it('has a write wait for the reads since the last write, and a read for that write only', () => {
    const waits = planWaits([
      { id: 'w1', locks: [lock('n', 'X')] },
      { id: 'r1', locks: [lock('n', 'S')] },
      { id: 'r2', locks: [lock('n', 'S')] },
      { id: 'w2', locks: [lock('n', 'X')] },
      { id: 'r3', locks: [lock('n', 'S')] },
    ]);
    expect(waits.map((ids) => [...ids].sort())).toEqual([
      [],
      ['w1'],
      ['w1'],
      ['r1', 'r2', 'w1'],
      ['w2'],
    ]);
  });

  it('gives frozen lists, one shared by the calls that wait for the same one call', () => {
    const waits = planWaits([
      { id: 'w1', locks: [lock('n', 'X')] },
      { id: 'r1', locks: [lock('n', 'S')] },
      { id: 'r2', locks: [lock('n', 'S'), lock('m', 'S')] },
      { id: 'w2', locks: [lock('n', 'X')] },
      { id: 'r3', locks: [lock('n', 'S')] },
      { id: 'r4', locks: [lock('n', 'S')] },
    ]);
    expect(waits.every((ids) => Object.isFrozen(ids))).toBe(true);
    expect(waits[1]).toEqual(['w1']);
    expect(waits[2]).toBe(waits[1]);
    expect(waits[4]).toEqual(['w2']);
    expect(waits[5]).toBe(waits[4]);
    expect(waits[4]).not.toBe(waits[1]);
  });

  it('plans 100,000 writes of one key as a chain of single waits', () => {
    const calls = Array.from({ length: 100_000 }, (_, n) => ({
      id: `w${n}`,
      locks: [lock('n', 'X')],
    }));
    const waits = planWaits(calls);
    expect(waits[99_999]).toEqual(['w99998']);
    expect(waits.reduce((total, ids) => total + ids.length, 0)).toBe(99_999);
  });

  it('keeps every holder of a node past 4,096 of them: a write waits for 9,000 reads', () => {
    const reads = Array.from({ length: 9_000 }, (_, n) => ({
      id: `r${n}`,
      locks: [lock('origin', 'IS'), lock('n', 'S')],
    }));
    const waits = planWaits([
      { id: 'w0', locks: [lock('origin', 'IX'), lock('n', 'X')] },
      ...reads,
      { id: 'w1', locks: [lock('origin', 'IX'), lock('n', 'X')] },
      { id: 'all', locks: [lock('origin', 'X')] },
      { id: 'r', locks: [lock('origin', 'IS'), lock('n', 'S')] },
    ]);
    // On `n`: the latest write and the reads since.
    expect(waits[9_001]).toEqual(['w0', ...reads.map((read) => read.id)]);
    // The origin's intent holders: the 9,000 reads' IS and both writes' IX, in call order.
    expect(waits[9_002]).toEqual(['w0', ...reads.map((read) => read.id), 'w1']);
    expect(waits[9_003]).toEqual(['w1', 'all']);
  });

  it('lists what the lock manager lists for 12,000 calls on three nodes', () => {
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed / 2 ** 32;
    };
    const modes: LockMode[] = ['IS', 'IS', 'IS', 'IX', 'IX', 'S', 'S', 'X'];
    const calls = Array.from({ length: 12_000 }, (_, n) => ({
      id: `c${n}`,
      locks: ['n1', 'n2', 'n3']
        .filter(() => next() < 0.6)
        .map((node) => lock(node, modes[Math.floor(next() * modes.length)] as LockMode)),
    }));
    expect(planWaits(calls)).toEqual(admittedWaits(calls));
  });

  it('gives the same waits to two plans made at once, a call of each in turn', () => {
    const batch = (prefix: string) =>
      Array.from({ length: 3_000 }, (_, n) => ({
        id: `${prefix}${n}`,
        locks: [lock(`k${n % 7}`, n % 5 === 0 ? 'X' : 'S')],
      }));
    const first = batch('a');
    const second = batch('b');
    const one = new WaitPlanner((index) => (first[index] as { id: string }).id, first.length);
    const other = new WaitPlanner((index) => (second[index] as { id: string }).id, second.length);
    const together: [(readonly string[])[], (readonly string[])[]] = [[], []];
    first.forEach((call, index) => {
      together[0].push(one.add(call.locks));
      together[1].push(other.add((second[index] as { locks: Lock[] }).locks));
    });
    expect(together[0]).toEqual(planWaits(first));
    expect(together[1]).toEqual(planWaits(second));
  });

  it('is empty for no calls', () => {
    expect(planWaits([])).toEqual([]);
  });

  it('lists only conflicting calls, and reaches every earlier conflicting call, for random batches', () => {
    const lockArb = fc.record({
      node: fc.constantFrom('n1', 'n2', 'n3', 'n4'),
      label: fc.constant(''),
      mode: fc.constantFrom<LockMode>('IS', 'IX', 'S', 'X'),
    });
    fc.assert(
      fc.property(fc.array(fc.array(lockArb, { maxLength: 4 }), { maxLength: 12 }), (lockLists) => {
        const calls = lockLists.map((locks, index) => ({ id: `c${index}`, locks }));
        const waits = planWaits(calls);
        const index = new Map(calls.map((call, position) => [call.id, position]));
        // Transitive closure of the waits, in call order (waits only point backwards).
        const closure: Set<number>[] = [];
        waits.forEach((ids, j) => {
          const reached = new Set<number>();
          for (const id of ids) {
            const i = index.get(id) as number;
            expect(i).toBeLessThan(j);
            reached.add(i);
            for (const further of closure[i] ?? []) reached.add(further);
          }
          closure.push(reached);
        });
        calls.forEach((call, j) => {
          for (const id of waits[j] ?? []) {
            const earlier = calls[index.get(id) as number] as (typeof calls)[number];
            expect(locksConflict(earlier.locks, call.locks)).toBe(true);
          }
          const conflicting = calls
            .slice(0, j)
            .flatMap((earlier, i) => (locksConflict(earlier.locks, call.locks) ? [i] : []));
          const reachedConflicting = [...(closure[j] ?? [])]
            .filter((i) => locksConflict((calls[i] as (typeof calls)[number]).locks, call.locks))
            .sort((a, b) => a - b);
          expect(reachedConflicting).toEqual(conflicting);
        });
      }),
    );
  });

  it('lists what the lock manager lists for the same calls admitted together, for random batches', () => {
    const lockArb = fc.record({
      node: fc.constantFrom('n1', 'n2', 'n3'),
      label: fc.constant(''),
      mode: fc.constantFrom<LockMode>('IS', 'IX', 'S', 'X'),
    });
    fc.assert(
      fc.property(fc.array(fc.array(lockArb, { maxLength: 4 }), { maxLength: 30 }), (lockLists) => {
        const calls = lockLists.map((locks, index) => ({ id: `c${index}`, locks }));
        expect(planWaits(calls)).toEqual(admittedWaits(calls));
      }),
      { numRuns: 300 },
    );
  });

  it('gives calls with the same locks waits of their own, and no call itself', () => {
    const waits = planWaits([
      { id: 'a', locks: [lock('n', 'S'), lock('n', 'X')] },
      { id: 'b', locks: [lock('n', 'X'), lock('n', 'S')] },
      { id: 'c', locks: [lock('n', 'IS')] },
    ]);
    expect(waits).toEqual([[], ['a'], ['b']]);
  });
});
