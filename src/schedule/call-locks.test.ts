import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CallLockInput, callLocks, WORLD_NODE } from './call-locks.js';
import { type Lock, type LockMode, locksConflict } from './lock-mode.js';
import { keyHierarchy, normalizeResourceKey } from './resource-key.js';

const base: CallLockInput = {
  origin: 'local',
  class: 'read',
  openWorld: false,
  resourceKeys: [],
};

/** `label=mode` per lock, sorted, so a test states the whole set. */
const summary = (locks: readonly Lock[]): string[] =>
  locks.map((lock) => `${lock.label}=${lock.mode}`).sort();

const locksOf = (input: Partial<CallLockInput>): Lock[] => callLocks({ ...base, ...input });

describe('callLocks', () => {
  it('takes S on the origin root for a read without keys', () => {
    expect(summary(locksOf({ class: 'read' }))).toEqual(['origin:local=S']);
  });

  it('takes X on the origin root for a write or destructive call without keys', () => {
    expect(summary(locksOf({ class: 'write' }))).toEqual(['origin:local=X']);
    expect(summary(locksOf({ class: 'destructive' }))).toEqual(['origin:local=X']);
  });

  it('takes IS on the root and every ancestor and S on the key for a read with a key', () => {
    expect(summary(locksOf({ class: 'read', resourceKeys: ['file:src/a.ts'] }))).toEqual(
      ['file:=IS', 'file:src/a.ts=S', 'file:src=IS', 'origin:local=IS'].sort(),
    );
  });

  it('takes IX on the root and every ancestor and X on the key for a write with a key', () => {
    expect(summary(locksOf({ class: 'write', resourceKeys: ['file:src/a.ts'] }))).toEqual(
      ['file:=IX', 'file:src/a.ts=X', 'file:src=IX', 'origin:local=IX'].sort(),
    );
  });

  it('locks the whole namespace for a key that is just the namespace', () => {
    expect(summary(locksOf({ class: 'write', resourceKeys: ['file:'] }))).toEqual([
      'file:=X',
      'origin:local=IX',
    ]);
  });

  it('normalizes keys, so two spellings take the same nodes', () => {
    const plain = locksOf({ class: 'write', resourceKeys: ['file:src/a.ts'] });
    const odd = locksOf({ class: 'write', resourceKeys: ['file:./src/../src//a.ts'] });
    expect(odd).toEqual(plain);
  });

  it('makes absolute keys inside the workspace relative', () => {
    expect(
      locksOf({ class: 'write', resourceKeys: ['file:/ws/src/a.ts'], workspace: '/ws' }),
    ).toEqual(locksOf({ class: 'write', resourceKeys: ['file:src/a.ts'] }));
  });

  it('merges modes on one node: a write of file:src and file:src/a takes X on file:src, not also IX', () => {
    const locks = locksOf({ class: 'write', resourceKeys: ['file:src', 'file:src/a'] });
    expect(summary(locks)).toEqual(
      ['file:=IX', 'file:src/a=X', 'file:src=X', 'origin:local=IX'].sort(),
    );
    expect(new Set(locks.map((lock) => lock.node)).size).toBe(locks.length);
  });

  it('merges modes on one node for reads: S absorbs IS', () => {
    const locks = locksOf({ class: 'read', resourceKeys: ['file:src/a', 'file:src'] });
    expect(summary(locks)).toEqual(
      ['file:=IS', 'file:src/a=S', 'file:src=S', 'origin:local=IS'].sort(),
    );
  });

  it('takes one lock per node for a repeated key', () => {
    const locks = locksOf({ class: 'write', resourceKeys: ['file:a', 'file:./a'] });
    expect(summary(locks)).toEqual(['file:=IX', 'file:a=X', 'origin:local=IX']);
  });

  it('treats an empty key as the whole origin, taking no key locks', () => {
    expect(summary(locksOf({ class: 'write', resourceKeys: ['file:a', ''] }))).toEqual([
      'origin:local=X',
    ]);
    expect(summary(locksOf({ class: 'read', resourceKeys: [''] }))).toEqual(['origin:local=S']);
  });

  it('takes X on the world root for an open-world write', () => {
    const locks = locksOf({ class: 'write', openWorld: true });
    expect(locks).toContainEqual({ node: WORLD_NODE, label: 'world', mode: 'X' });
    expect(
      summary(locksOf({ class: 'destructive', openWorld: true, resourceKeys: ['k:a'] })),
    ).toEqual(['k:=IX', 'k:a=X', 'origin:local=IX', 'world=X'].sort());
  });

  it('takes no world lock for an open-world write when serializeOpenWorldWrites is false', () => {
    const locks = locksOf({ class: 'write', openWorld: true, serializeOpenWorldWrites: false });
    expect(summary(locks)).toEqual(['origin:local=X']);
  });

  it('takes no world lock for an open-world read', () => {
    expect(summary(locksOf({ class: 'read', openWorld: true }))).toEqual(['origin:local=S']);
  });

  it('takes no world lock for a closed-world write', () => {
    expect(locksOf({ class: 'write', openWorld: false }).map((lock) => lock.node)).not.toContain(
      WORLD_NODE,
    );
  });

  it('keeps lock trees of different origins apart, except for the world root', () => {
    const a = callLocks({ ...base, origin: 'a', class: 'write', resourceKeys: ['file:x'] });
    const b = callLocks({ ...base, origin: 'b', class: 'write', resourceKeys: ['file:x'] });
    expect(locksConflict(a, b)).toBe(false);
    const worldA = callLocks({ ...base, origin: 'a', class: 'write', openWorld: true });
    const worldB = callLocks({ ...base, origin: 'b', class: 'write', openWorld: true });
    expect(locksConflict(worldA, worldB)).toBe(true);
  });

  it('does not confuse an origin root with a key of the same name', () => {
    const root = callLocks({ ...base, origin: 'file:', class: 'write' });
    const key = callLocks({ ...base, origin: 'other', class: 'write', resourceKeys: ['file:'] });
    expect(locksConflict(root, key)).toBe(false);
  });

  it('orders a directory write against a read inside it, but not against a sibling read', () => {
    const dir = locksOf({ class: 'write', resourceKeys: ['file:src'] });
    const inside = locksOf({ class: 'read', resourceKeys: ['file:src/a.ts'] });
    const sibling = locksOf({ class: 'read', resourceKeys: ['file:lib/b.ts'] });
    expect(locksConflict(dir, inside)).toBe(true);
    expect(locksConflict(dir, sibling)).toBe(false);
  });
});

/**
 * The rule of DESIGN as it reads, node by node: every lock of every key's chain, then each
 * node's modes merged (X absorbs everything, S absorbs IS, IX absorbs IS), in the order the
 * nodes are first met. `callLocks` must give exactly this, order included.
 */
function reference(input: CallLockInput): Lock[] {
  const write = input.class !== 'read';
  const leaf: LockMode = write ? 'X' : 'S';
  const intent: LockMode = write ? 'IX' : 'IS';
  const byNode = new Map<string, { label: string; modes: Set<LockMode> }>();
  const add = (node: string, label: string, mode: LockMode): void => {
    const known = byNode.get(node);
    if (known === undefined) byNode.set(node, { label, modes: new Set([mode]) });
    else known.modes.add(mode);
  };
  const chains = input.resourceKeys.map((key) =>
    keyHierarchy(normalizeResourceKey(key, input.workspace)),
  );
  const whole = chains.length === 0 || chains.some((chain) => chain.length === 0);
  add(`o\u0000${input.origin}`, `origin:${input.origin}`, whole ? leaf : intent);
  if (!whole) {
    for (const chain of chains) {
      chain.forEach((key, index) => {
        add(`o\u0000${input.origin}\u0000${key}`, key, index === chain.length - 1 ? leaf : intent);
      });
    }
  }
  if (write && input.openWorld && input.serializeOpenWorldWrites !== false)
    add(WORLD_NODE, 'world', 'X');
  const locks: Lock[] = [];
  for (const [node, { label, modes }] of byNode) {
    if (modes.has('X')) {
      locks.push({ node, label, mode: 'X' });
      continue;
    }
    if (modes.has('S')) modes.delete('IS');
    if (modes.has('IX')) modes.delete('IS');
    for (const mode of modes) locks.push({ node, label, mode });
  }
  return locks;
}

describe('callLocks against the rule as it reads', () => {
  it('gives the same locks in the same order for any keys, class and flags', () => {
    const segment = fc.constantFrom('a', 'b', 'src', '.', '..', '', 'x.ts');
    const key = fc
      .tuple(
        fc.constantFrom('file:', 'doc:', 'item:', ''),
        fc.boolean(),
        fc.array(segment, { maxLength: 4 }),
      )
      .map(
        ([namespace, absolute, segments]) =>
          `${namespace}${absolute ? '/' : ''}${segments.join('/')}`,
      );
    const input = fc.record({
      origin: fc.constantFrom('local', 'fs', 'a b'),
      class: fc.constantFrom('read', 'write', 'destructive'),
      openWorld: fc.boolean(),
      resourceKeys: fc.array(key, { maxLength: 5 }),
      serializeOpenWorldWrites: fc.option(fc.boolean(), { nil: undefined }),
      workspace: fc.option(fc.constantFrom('/ws', '/ws/proj'), { nil: undefined }),
    });
    fc.assert(
      fc.property(input, (drawn) => {
        const made: CallLockInput = Object.fromEntries(
          Object.entries(drawn).filter(([, value]) => value !== undefined),
        ) as unknown as CallLockInput;
        expect(callLocks(made)).toEqual(reference(made));
      }),
      { numRuns: 2000, seed: 0x10c5 },
    );
  });
});
