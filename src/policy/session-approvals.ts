/** Approvals remembered for the life of a runtime, per (tool, approval key). */
export class SessionApprovals {
  readonly #keys = new Map<string, Set<string>>();

  /** True when every key is approved for the tool (and there is at least one key). */
  hasAll(tool: string, keys: readonly string[]): boolean {
    const approved = this.#keys.get(tool);
    return approved !== undefined && keys.length > 0 && keys.every((key) => approved.has(key));
  }

  /** Remembers the keys for the tool. */
  add(tool: string, keys: readonly string[]): void {
    let approved = this.#keys.get(tool);
    if (approved === undefined) {
      approved = new Set();
      this.#keys.set(tool, approved);
    }
    for (const key of keys) approved.add(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#keys.clear();
  }
}
