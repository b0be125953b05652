/** Shared state for several gateway replicas (Redis): what other layers use. */
export {
  checkLeaseMs,
  connectRedisState,
  type RedisStateOptions,
} from './connect-redis-state.js';
export {
  type OpenedState,
  openRequestState,
  type SealBinding,
  sealRequestState,
} from './seal-request-state.js';
export {
  SHARED_SESSION_TTL_MS,
  sharedAlwaysApprovals,
  sharedSessionApprovals,
} from './shared-approvals.js';
export {
  type ApprovalMemo,
  type ReserveOutcome,
  type SharedState,
  type SharedStateStatus,
  SharedStateUnavailableError,
  type SlotLease,
  type StoredApproval,
  type TakeOutcome,
  type TakeRequest,
  type WindowLimit,
  type WindowReservation,
} from './shared-state.js';
export { type SharedLimits, withSharedLimits } from './with-shared-limits.js';
