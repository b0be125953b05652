/**
 * A part of a call that its tool could not fully understand, such as a shell substitution
 * in a command line. A call with one never matches an allow rule on keys and is never
 * covered by a remembered approval: it asks, and its approval request lists each part.
 */
export interface OpaquePart {
  /** What the part is and why it is not understood, for a person: `command substitution $(…)`. */
  readonly reason: string;
  /**
   * True when the part may run a command that the keys do not name (the program is an
   * expansion, a runner's target is hidden): a deny rule on keys could not see it, so any
   * deny or ask rule with a `key` that would otherwise apply to the call matches it.
   */
  readonly hidesCommand?: boolean;
}

/** The keys of a call with the parts its tool could not understand, as `approvalKey` may return them. */
export interface ApprovalKeys {
  /** The approval keys, as a plain `approvalKey` result would give them. */
  readonly keys: readonly string[];
  /** The parts not understood; absent or empty when everything was. */
  readonly opaque?: readonly OpaquePart[];
}

/** What a tool's `approvalKey` returns: one key, a list of keys, or {@link ApprovalKeys}. */
export type ApprovalKeyResult = string | readonly string[] | ApprovalKeys;
