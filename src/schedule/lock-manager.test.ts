import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type LockEntry, LockManager } from './lock-manager.js';
import { type Lock, type LockMode, locksConflict } from './lock-mode.js';

const lock = (node: string, mode: LockMode): Lock => ({ node, label: node, mode });

describe('LockManager', () => {
  it('calls onReady synchronously, before admit returns, when nothing conflicts', () => {
    const manager = new LockManager();
    const onReady = vi.fn();
    const entry = manager.admit('a', [lock('n', 'X')], onReady);
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(entry.waitsFor).toEqual([]);
  });

  it('keeps the order on nodes held, and on nodes used again, across thousands of keys used once', () => {
    const manager = new LockManager();
    // `held` is new and still held; `again` is new, freed, and taken by a second call later.
    const writer = manager.admit('w', [lock('held', 'X')], () => {});
    manager.release(manager.admit('a1', [lock('again', 'X')], () => {}));
    // Keys used by one call each, far more than the nodes of that kind kept idle.
    for (let n = 0; n < 3000; n += 1) {
      manager.release(manager.admit(`k${n}`, [lock(`key ${n}`, 'X')], () => {}));
    }
    const onReader = vi.fn();
    const reader = manager.admit('r', [lock('held', 'S')], onReader);
    expect(onReader).not.toHaveBeenCalled();
    expect(reader.waitsFor).toEqual(['w']);
    const again = manager.admit('a2', [lock('again', 'X')], () => {});
    const onAfter = vi.fn();
    const after = manager.admit('a3', [lock('again', 'S')], onAfter);
    expect(after.waitsFor).toEqual(['a2']);
    manager.release(again);
    expect(onAfter).toHaveBeenCalledTimes(1);
    manager.release(writer);
    expect(onReader).toHaveBeenCalledTimes(1);
    manager.release(reader);
    manager.release(after);
    expect(manager.size).toBe(0);
  });

  it("keeps no released entry's owner (its call's state) while the entry stays listed on its node", () => {
    const manager = new LockManager();
    const holder = manager.admit('a', [lock('n', 'S')], () => {}, { call: 'a' });
    // Released while `a` still holds the node: `b` stays in the node's list a while.
    const b = manager.admit('b', [lock('n', 'S')], () => {}, { call: 'b' });
    manager.release(b);
    expect((b as unknown as { owner: unknown }).owner).toBeUndefined();
    expect(manager.size).toBe(1);
    manager.release(holder);
  });

  it('keeps no other entry alive from a released one (its wait lists are emptied)', () => {
    const manager = new LockManager();
    // The entries' internal lists, which would chain a long queue's entries together.
    type Lists = { blockers: unknown[]; dependents: unknown[] };
    const a = manager.admit('a', [lock('n', 'X')], () => {}) as unknown as Lists & LockEntry;
    const onReadyB = vi.fn();
    const b = manager.admit('b', [lock('n', 'X')], onReadyB) as unknown as Lists & LockEntry;
    const c = manager.admit('c', [lock('n', 'S')], () => {}) as unknown as Lists & LockEntry;
    expect(a.dependents).toHaveLength(1);
    expect(b.blockers).toHaveLength(1);
    manager.release(a);
    expect(onReadyB).toHaveBeenCalledTimes(1);
    expect(a.dependents).toHaveLength(0);
    expect(a.blockers).toHaveLength(0);
    manager.release(b);
    expect(b.blockers).toHaveLength(0);
    expect(b.dependents).toHaveLength(0);
    // What the entries reported at admission stays as it was.
    expect(b.waitsFor).toEqual(['a']);
    expect(c.waitsFor).toEqual(['b']);
    manager.release(c);
    expect(manager.size).toBe(0);
  });

  it('keeps the order on held and idle nodes when it forgets the idle ones', () => {
    const manager = new LockManager();
    const held = manager.admit('held', [lock('a', 'X')], () => {});
    manager.release(manager.admit('was', [lock('b', 'X')], () => {}));
    // Far more nodes none holds than a manager keeps: the idle ones are forgotten.
    for (let n = 0; n < 3000; n += 1) {
      manager.release(manager.admit(`k${n}`, [lock(`k${n}`, 'S')], () => {}));
    }
    const onReady = vi.fn();
    const reader = manager.admit('reader', [lock('a', 'S')], onReady);
    expect(reader.waitsFor).toEqual(['held']);
    expect(onReady).not.toHaveBeenCalled();
    const writer = manager.admit('writer', [lock('b', 'X')], () => {});
    const onReadyAfter = vi.fn();
    const after = manager.admit('after', [lock('b', 'S')], onReadyAfter);
    expect(writer.waitsFor).toEqual([]);
    expect(after.waitsFor).toEqual(['writer']);
    manager.release(held);
    expect(onReady).toHaveBeenCalledTimes(1);
    manager.release(writer);
    expect(onReadyAfter).toHaveBeenCalledTimes(1);
    for (const entry of [reader, after]) manager.release(entry);
    expect(manager.size).toBe(0);
  });

  it('keeps the order on held nodes when more are held than idle ones are kept', () => {
    const manager = new LockManager();
    const held = Array.from({ length: 2000 }, (_, n) =>
      manager.admit(`h${n}`, [lock(`h${n}`, 'X')], () => {}),
    );
    for (let n = 0; n < 5000; n += 1) {
      manager.release(manager.admit(`k${n}`, [lock(`k${n}`, 'S')], () => {}));
    }
    const onReady = vi.fn();
    const reader = manager.admit('reader', [lock('h1500', 'S')], onReady);
    expect(reader.waitsFor).toEqual(['h1500']);
    for (const entry of held) manager.release(entry);
    expect(onReady).toHaveBeenCalledTimes(1);
    manager.release(reader);
    expect(manager.size).toBe(0);
  });

  it('lists in waitsFor the earlier active entries whose locks conflict', () => {
    const manager = new LockManager();
    manager.admit('a', [lock('n1', 'X')], () => {});
    manager.admit('b', [lock('n2', 'S')], () => {});
    manager.admit('c', [lock('n1', 'IS')], () => {});
    manager.admit('d', [lock('n2', 'S'), lock('n3', 'S')], () => {});
    const e = manager.admit('e', [lock('n2', 'X'), lock('n4', 'X')], () => {});
    const f = manager.admit('f', [lock('n1', 'IS'), lock('n3', 'IX')], () => {});
    expect([...e.waitsFor].sort()).toEqual(['b', 'd']);
    // IS is compatible with IS (c) but not X (a); IX conflicts with S (d).
    expect([...f.waitsFor].sort()).toEqual(['a', 'd']);
  });

  it('counts a blocker once even when several of its locks conflict', () => {
    const manager = new LockManager();
    const a = manager.admit('a', [lock('n1', 'X'), lock('n2', 'X')], () => {});
    const onReady = vi.fn();
    const b = manager.admit('b', [lock('n1', 'X'), lock('n2', 'S')], onReady);
    expect(b.waitsFor).toEqual(['a']);
    manager.release(a);
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('becomes ready when the last blocker is released, not before', () => {
    const manager = new LockManager();
    const a = manager.admit('a', [lock('n', 'S')], () => {});
    const b = manager.admit('b', [lock('n', 'S')], () => {});
    const onReady = vi.fn();
    manager.admit('c', [lock('n', 'X')], onReady);
    expect(onReady).not.toHaveBeenCalled();
    manager.release(b);
    expect(onReady).not.toHaveBeenCalled();
    manager.release(a);
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('treats a second release as a no-op', () => {
    const manager = new LockManager();
    const a = manager.admit('a', [lock('n', 'S')], () => {});
    const b = manager.admit('b', [lock('n', 'S')], () => {});
    const onReady = vi.fn();
    manager.admit('c', [lock('n', 'X')], onReady);
    expect(manager.size).toBe(3);
    manager.release(a);
    manager.release(a);
    expect(onReady).not.toHaveBeenCalled();
    expect(manager.size).toBe(2);
    manager.release(b);
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('never lets a later entry block an earlier one', () => {
    const manager = new LockManager();
    const first = manager.admit('first', [lock('gate', 'X')], () => {});
    const onReady = vi.fn();
    const earlier = manager.admit('earlier', [lock('gate', 'X'), lock('n', 'S')], onReady);
    const later = manager.admit('later', [lock('n', 'X')], () => {});
    expect(earlier.waitsFor).toEqual(['first']);
    expect(later.waitsFor).toEqual(['earlier']);
    manager.release(first);
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('does not count released entries as blockers of new admissions', () => {
    const manager = new LockManager();
    const a = manager.admit('a', [lock('n', 'X')], () => {});
    manager.release(a);
    const onReady = vi.fn();
    const b = manager.admit('b', [lock('n', 'X')], onReady);
    expect(b.waitsFor).toEqual([]);
    expect(onReady).toHaveBeenCalledTimes(1);
  });

  it('never readies an entry released while it waited, and frees those waiting for it', () => {
    const manager = new LockManager();
    const a = manager.admit('a', [lock('n', 'X')], () => {});
    const bReady = vi.fn();
    const b = manager.admit('b', [lock('n', 'X')], bReady);
    const cReady = vi.fn();
    const c = manager.admit('c', [lock('n', 'X')], cReady);
    // c waits for a through b (transitively reduced); releasing b early hands a over.
    expect(c.waitsFor).toEqual(['b']);
    manager.release(b);
    expect(cReady).not.toHaveBeenCalled();
    manager.release(a);
    expect(bReady).not.toHaveBeenCalled();
    expect(cReady).toHaveBeenCalledTimes(1);
  });

  it('lets compatible entries hold one node together', () => {
    const manager = new LockManager();
    const ready = vi.fn();
    manager.admit('a', [lock('n', 'IS')], ready);
    manager.admit('b', [lock('n', 'IX')], ready);
    manager.admit('c', [lock('n', 'IS')], ready);
    expect(ready).toHaveBeenCalledTimes(3);
  });

  it('counts admitted entries not yet released in size', () => {
    const manager = new LockManager();
    expect(manager.size).toBe(0);
    const a = manager.admit('a', [lock('n', 'X')], () => {});
    const b = manager.admit('b', [lock('n', 'X')], () => {});
    manager.admit('c', [], () => {});
    expect(manager.size).toBe(3);
    manager.release(b);
    manager.release(a);
    expect(manager.size).toBe(1);
  });
});

describe('LockManager properties', () => {
  const modeArb = fc.constantFrom<LockMode>('IS', 'IX', 'S', 'X');
  const locksArb = fc.uniqueArray(
    fc.record({ node: fc.constantFrom('r', 'a', 'b'), mode: modeArb }),
    {
      minLength: 1,
      maxLength: 3,
      selector: (l) => l.node,
    },
  );
  const stepArb = fc.oneof(
    {
      weight: 3,
      arbitrary: locksArb.map((locks) => ({ admit: locks.map((l) => lock(l.node, l.mode)) })),
    },
    { weight: 2, arbitrary: fc.nat().map((pick) => ({ release: pick })) },
  );

  it('readies an entry exactly when every earlier conflicting entry is released, with early releases', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), (steps) => {
        const manager = new LockManager();
        const entries: Array<{
          entry: LockEntry;
          locks: Lock[];
          ready: boolean;
          released: boolean;
        }> = [];
        for (const step of steps) {
          if ('admit' in step) {
            const record = {
              entry: undefined as unknown as LockEntry,
              locks: step.admit,
              ready: false,
              released: false,
            };
            entries.push(record);
            record.entry = manager.admit(`e${entries.length}`, step.admit, () => {
              expect(record.ready).toBe(false);
              record.ready = true;
            });
          } else {
            // Release a running entry (its call ended) or a waiting one (cancelled while queued).
            const open = entries.filter((e) => !e.released);
            const target = open[step.release % Math.max(1, open.length)];
            if (target === undefined) continue;
            target.released = true;
            manager.release(target.entry);
          }
          entries.forEach((e, j) => {
            if (e.released) return;
            const blocked = entries
              .slice(0, j)
              .some((earlier) => !earlier.released && locksConflict(earlier.locks, e.locks));
            expect(e.ready).toBe(!blocked);
          });
        }
      }),
      { numRuns: 500 },
    );
  });
});
