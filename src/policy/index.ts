export {
  type ApprovalAsk,
  type ApprovalOutcome,
  type Authorizer,
  allowAll,
  type CallRequest,
  type Decision,
} from './authorizer.js';
export { deriveApprovalKeys } from './derive-approval-keys.js';
