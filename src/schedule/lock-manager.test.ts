import { describe, expect, it, vi } from 'vitest';
import { LockManager } from './lock-manager.js';
import type { Lock, LockMode } from './lock-mode.js';

const lock = (node: string, mode: LockMode): Lock => ({ node, label: node, mode });

describe('LockManager', () => {
  it('calls onReady synchronously, before admit returns, when nothing conflicts', () => {
    const manager = new LockManager();
    const onReady = vi.fn();
    const entry = manager.admit('a', [lock('n', 'X')], onReady);
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(entry.waitsFor).toEqual([]);
  });

  it('lists in waitsFor exactly the earlier active entries whose locks conflict', () => {
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
    expect([...c.waitsFor].sort()).toEqual(['a', 'b']);
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
