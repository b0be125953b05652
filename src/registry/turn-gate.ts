/**
 * Counts the turns under way, so that a reload of tool modules waits for a moment when no
 * turn is under way: a turn keeps the tools it started with.
 */
export class TurnGate {
  #active = 0;
  #waiters: (() => void)[] = [];

  /** Number of turns under way. */
  get active(): number {
    return this.#active;
  }

  /** Marks a turn as under way until the returned function is called (once counts). */
  enter(): () => void {
    this.#active += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#active -= 1;
      if (this.#active === 0) this.#wake();
    };
  }

  /** Resolves once no turn is under way (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
    });
  }

  #wake(): void {
    // Most turns end with no one waiting: no new list for them.
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
