/**
 * Lock modes of the multi-granularity scheme: `S` shared, `X` exclusive, and the intention
 * modes `IS` / `IX` taken on the ancestors of a node locked `S` / `X`.
 */
export type LockMode = 'IS' | 'IX' | 'S' | 'X';

/** One lock a call takes: a node of the lock tree and a mode. */
export interface Lock {
  /** Opaque identity of the node (origin root, resource key, or the shared `world`). */
  readonly node: string;
  /** Human-readable name of the node: `origin:<name>`, a resource key, or `world`. */
  readonly label: string;
  readonly mode: LockMode;
}

const COMPATIBLE: Readonly<Record<LockMode, ReadonlySet<LockMode>>> = {
  IS: new Set(['IS', 'IX', 'S']),
  IX: new Set(['IS', 'IX']),
  S: new Set(['IS', 'S']),
  X: new Set(),
};

const MODES: readonly LockMode[] = ['IS', 'IX', 'S', 'X'];

/** Modes that conflict with each mode, for indexed look-ups (derived from the table above). */
export const CONFLICTING_MODES: Readonly<Record<LockMode, readonly LockMode[]>> = {
  IS: MODES.filter((m) => !COMPATIBLE.IS.has(m)),
  IX: MODES.filter((m) => !COMPATIBLE.IX.has(m)),
  S: MODES.filter((m) => !COMPATIBLE.S.has(m)),
  X: MODES.filter((m) => !COMPATIBLE.X.has(m)),
};

/** True when two locks on the same node can be held at once. */
export function compatible(a: LockMode, b: LockMode): boolean {
  return COMPATIBLE[a].has(b);
}

/** True when two calls' locks conflict on some node. */
export function locksConflict(a: readonly Lock[], b: readonly Lock[]): boolean {
  for (const left of a) {
    for (const right of b) {
      if (left.node === right.node && !compatible(left.mode, right.mode)) return true;
    }
  }
  return false;
}
