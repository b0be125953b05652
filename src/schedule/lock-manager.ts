import { CONFLICTING_MODES, type Lock, type LockMode } from './lock-mode.js';

/** A call admitted into the lock manager. */
export interface LockEntry {
  /** Caller's id for the entry (the call id). */
  readonly id: string;
  readonly locks: readonly Lock[];
  /** Ids of the earlier, still active entries whose locks conflict with this one's. */
  readonly waitsFor: readonly string[];
}

interface Entry extends LockEntry {
  pending: number;
  released: boolean;
  readonly dependents: Entry[];
  readonly onReady: () => void;
}

/**
 * Multi-granularity lock manager with admission order. An entry waits for every earlier
 * active entry whose locks conflict with its own, and for nothing else: later entries
 * never block earlier ones, so conflicting calls run in admission order and independent
 * calls overlap. Calls admitted over time (a gateway) follow the same rule.
 */
export class LockManager {
  /** Active entries per node and mode, so a look-up visits only conflicting holders. */
  readonly #holders = new Map<string, Map<LockMode, Set<Entry>>>();
  #active = 0;

  /** Number of admitted entries not yet released. */
  get size(): number {
    return this.#active;
  }

  /**
   * Admits an entry. `onReady` runs (synchronously if nothing conflicts) once every
   * conflicting earlier entry is released.
   */
  admit(id: string, locks: readonly Lock[], onReady: () => void): LockEntry {
    const blockers = new Set<Entry>();
    for (const lock of locks) {
      const byMode = this.#holders.get(lock.node);
      if (byMode === undefined) continue;
      for (const mode of CONFLICTING_MODES[lock.mode]) {
        const holders = byMode.get(mode);
        if (holders !== undefined) for (const holder of holders) blockers.add(holder);
      }
    }
    const entry: Entry = {
      id,
      locks,
      waitsFor: [...blockers].map((blocker) => blocker.id),
      pending: blockers.size,
      released: false,
      dependents: [],
      onReady,
    };
    for (const blocker of blockers) blocker.dependents.push(entry);
    for (const lock of locks) {
      let byMode = this.#holders.get(lock.node);
      if (byMode === undefined) {
        byMode = new Map();
        this.#holders.set(lock.node, byMode);
      }
      let holders = byMode.get(lock.mode);
      if (holders === undefined) {
        holders = new Set();
        byMode.set(lock.mode, holders);
      }
      holders.add(entry);
    }
    this.#active += 1;
    if (entry.pending === 0) onReady();
    return entry;
  }

  /**
   * Releases an entry's locks (whether it ran or not); entries that waited only for it
   * become ready. Releasing twice is a no-op.
   */
  release(handle: LockEntry): void {
    const entry = handle as Entry;
    if (entry.released) return;
    entry.released = true;
    this.#active -= 1;
    for (const lock of entry.locks) {
      const byMode = this.#holders.get(lock.node);
      const holders = byMode?.get(lock.mode);
      holders?.delete(entry);
      if (holders?.size === 0) byMode?.delete(lock.mode);
      if (byMode?.size === 0) this.#holders.delete(lock.node);
    }
    for (const dependent of entry.dependents) {
      dependent.pending -= 1;
      if (dependent.pending === 0 && !dependent.released) dependent.onReady();
    }
  }
}
