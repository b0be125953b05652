import { boundedMemo } from './bounded-memo.js';
import { type CallLockInput, callLocks } from './call-locks.js';
import type { Lock } from './lock-mode.js';

/** How many distinct lock sets `memoCallLocks` keeps by default. */
export const DEFAULT_LOCK_MEMO_SIZE = 4096;

/** What varies from call to call: the rest of `CallLockInput` is fixed per memo. */
export type MemoLockInput = Pick<CallLockInput, 'origin' | 'class' | 'openWorld' | 'resourceKeys'>;

/** What `memoCallLocks` fixes for every call it computes. */
export interface MemoCallLocksOptions {
  /** As `CallLockInput.serializeOpenWorldWrites`. */
  readonly serializeOpenWorldWrites?: boolean;
  /** As `CallLockInput.workspace`. */
  readonly workspace?: string;
  /** How many distinct lock sets to keep; then the memory starts over. Default 4096. */
  readonly limit?: number;
}

const CLASS_FLAG = { read: 'r', write: 'w', destructive: 'd' } as const;

/**
 * `callLocks` with a bounded memory of what it computed: most calls repeat a tool's fixed
 * resource keys (or none), so their locks are looked up instead of normalizing and walking
 * the keys again. Entries are kept per origin, then per class, open-world flag and key
 * list (one key whole after a marker, several as JSON; never a joined string: a key is
 * model-chosen text and may contain any separator). Locks are remembered from their second
 * call on (see `boundedMemo`): the calls of a stream of new keys each get their own. The
 * returned arrays are shared, hence readonly.
 */
export function memoCallLocks(
  options: MemoCallLocksOptions = {},
): (input: MemoLockInput) => readonly Lock[] {
  const limit = options.limit ?? DEFAULT_LOCK_MEMO_SIZE;
  const fixed = {
    ...(options.serializeOpenWorldWrites === undefined
      ? {}
      : { serializeOpenWorldWrites: options.serializeOpenWorldWrites }),
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
  };
  const memo = boundedMemo<string, readonly Lock[]>(limit);
  return (input) => {
    const keys = input.resourceKeys;
    // One key (the common case) is taken whole after its marker; several are spelled as JSON.
    const key =
      CLASS_FLAG[input.class] +
      (input.openWorld ? 'o' : '-') +
      (keys.length === 0 ? '0' : keys.length === 1 ? `1${keys[0]}` : JSON.stringify(keys));
    const known = memo.get(input.origin, key);
    if (known !== undefined) return known;
    const locks = callLocks({ ...fixed, ...input });
    memo.set(input.origin, key, locks);
    return locks;
  };
}
