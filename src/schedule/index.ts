export type { AbortWatch } from './abort-scope.js';
export { AbortListeners, AbortScope } from './abort-scope.js';
export {
  type Admission,
  type AdmitRequest,
  CANCELLED_BEFORE_START,
  type Grant,
  type GrantListener,
  type Lease,
} from './admission.js';
export { type AnySignal, anySignal, anySignalByListeners } from './any-signal.js';
export { type BoundedMemo, boundedMemo } from './bounded-memo.js';
export { type CallLockInput, callLocks, WORLD_NODE } from './call-locks.js';
export { type Clock, systemClock } from './clock.js';
export { type LockEntry, LockManager, type LockManagerOptions } from './lock-manager.js';
export {
  CONFLICTING_MODES,
  compatible,
  type Lock,
  type LockMode,
  locksConflict,
} from './lock-mode.js';
export {
  DEFAULT_LOCK_MEMO_SIZE,
  type MemoCallLocksOptions,
  type MemoLockInput,
  memoCallLocks,
} from './memo-call-locks.js';
export { planWaits } from './plan-waits.js';
export { RateLimiter, type Reservation } from './rate-limiter.js';
export { keyHierarchy, normalizeResourceKey } from './resource-key.js';
export { Scheduler, type SchedulerOptions } from './scheduler.js';
export { WaitPlanner } from './wait-planner.js';
