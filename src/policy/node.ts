// The Node-only part of the policy layer: policy files and the persistent approval store.

export {
  type ApprovalRecord,
  type ApprovalStore,
  type ApprovalStoreOptions,
  createApprovalStore,
} from './approval-store.js';
export { type LoadPolicyOptions, loadPolicy } from './load-policy.js';
