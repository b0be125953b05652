import type { PersistentApprovals, SharedSessionApprovals } from '../policy/index.js';
import type { SharedState } from './shared-state.js';

/** How long a shared session approval lasts after it was given. */
export const SHARED_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * "Always" approvals kept in shared state, for a policy's `approvals`: what one replica
 * remembers, every replica honours at once. `where` names the store in messages.
 */
export function sharedAlwaysApprovals(
  state: SharedState,
  where: string,
  clock: () => Date = () => new Date(),
): PersistentApprovals {
  return {
    path: where,
    hasAll: (tool, keys) => state.hasApprovals('always', tool, keys),
    add: (tool, keys, reason) =>
      state.addApprovals('always', tool, keys, {
        grantedAt: clock().toISOString(),
        ...(reason === undefined ? {} : { reason }),
      }),
  };
}

/**
 * Session approvals kept in shared state, for a policy's `sharedSessions`, forgotten
 * {@link SHARED_SESSION_TTL_MS} after the last one given in that session.
 */
export function sharedSessionApprovals(
  state: SharedState,
  where: string,
  clock: () => Date = () => new Date(),
): SharedSessionApprovals {
  return {
    path: where,
    hasAll: (session, tool, keys) => state.hasApprovals(`session:${session}`, tool, keys),
    add: (session, tool, keys, reason) =>
      state.addApprovals(
        `session:${session}`,
        tool,
        keys,
        { grantedAt: clock().toISOString(), reason },
        SHARED_SESSION_TTL_MS,
      ),
  };
}
