import { describe, expect, it } from 'vitest';
import {
  CONFLICTING_MODES,
  compatible,
  type Lock,
  type LockMode,
  locksConflict,
} from './lock-mode.js';

const MODES: readonly LockMode[] = ['IS', 'IX', 'S', 'X'];

/** DESIGN, scheduling: IS-IS, IS-IX, IS-S, IX-IX, S-S are compatible; nothing else is. */
const DESIGN_COMPATIBLE = new Set(['IS-IS', 'IS-IX', 'IS-S', 'IX-IX', 'S-S']);
const designCompatible = (a: LockMode, b: LockMode): boolean =>
  DESIGN_COMPATIBLE.has(`${a}-${b}`) || DESIGN_COMPATIBLE.has(`${b}-${a}`);

const pairs = MODES.flatMap((a) => MODES.map((b) => [a, b] as const));

const lock = (node: string, mode: LockMode): Lock => ({ node, label: node, mode });

describe('compatible', () => {
  it.each(pairs)('%s with %s follows the DESIGN matrix', (a, b) => {
    expect(compatible(a, b)).toBe(designCompatible(a, b));
  });

  it('has exactly the five compatible pairs of DESIGN, counted both ways', () => {
    const compatiblePairs = pairs.filter(([a, b]) => compatible(a, b)).map(([a, b]) => `${a}-${b}`);
    expect(compatiblePairs.sort()).toEqual(
      ['IS-IS', 'IS-IX', 'IX-IS', 'IS-S', 'S-IS', 'IX-IX', 'S-S'].sort(),
    );
  });

  it('is symmetric', () => {
    for (const [a, b] of pairs) expect(compatible(a, b)).toBe(compatible(b, a));
  });

  it('lets X coexist with nothing, and S with no IX', () => {
    for (const mode of MODES) {
      expect(compatible('X', mode)).toBe(false);
      expect(compatible(mode, 'X')).toBe(false);
    }
    expect(compatible('S', 'IX')).toBe(false);
    expect(compatible('IX', 'S')).toBe(false);
  });
});

describe('CONFLICTING_MODES', () => {
  it.each(MODES)('lists for %s exactly the modes it is not compatible with', (mode) => {
    expect([...CONFLICTING_MODES[mode]].sort()).toEqual(
      MODES.filter((other) => !compatible(mode, other)).sort(),
    );
  });

  it('gives the DESIGN conflicts per mode', () => {
    expect([...CONFLICTING_MODES.IS].sort()).toEqual(['X']);
    expect([...CONFLICTING_MODES.IX].sort()).toEqual(['S', 'X']);
    expect([...CONFLICTING_MODES.S].sort()).toEqual(['IX', 'X']);
    expect([...CONFLICTING_MODES.X].sort()).toEqual(['IS', 'IX', 'S', 'X']);
  });
});

describe('locksConflict', () => {
  it('finds a conflict on a shared node', () => {
    expect(locksConflict([lock('a', 'X')], [lock('a', 'S')])).toBe(true);
    expect(locksConflict([lock('a', 'S')], [lock('a', 'IX')])).toBe(true);
  });

  it('never conflicts across different nodes, even X with X', () => {
    expect(locksConflict([lock('a', 'X')], [lock('b', 'X')])).toBe(false);
  });

  it('does not conflict on a shared node with compatible modes', () => {
    expect(
      locksConflict([lock('a', 'IS'), lock('b', 'S')], [lock('a', 'IX'), lock('b', 'S')]),
    ).toBe(false);
  });

  it('finds a conflict on any one of several shared nodes', () => {
    const left = [lock('root', 'IX'), lock('k1', 'X')];
    const right = [lock('root', 'IS'), lock('k2', 'S'), lock('k1', 'IS')];
    expect(locksConflict(left, right)).toBe(true);
    expect(locksConflict(right, left)).toBe(true);
  });

  it('is false when either side takes no locks', () => {
    expect(locksConflict([], [lock('a', 'X')])).toBe(false);
    expect(locksConflict([lock('a', 'X')], [])).toBe(false);
  });
});
