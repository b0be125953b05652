export {
  type ApprovalAsk,
  type ApprovalOutcome,
  type Authorizer,
  allowAll,
  type CallRequest,
  type Decision,
} from './authorizer.js';
export { deriveApprovalKeys } from './derive-approval-keys.js';
export {
  type ApprovalAnswer,
  type ApprovalRequest,
  type Approver,
  DEFAULT_MODE,
  MODES,
  type Mode,
  type Policy,
  type PolicyRule,
  type RememberScope,
  type RuleDecision,
} from './policy-types.js';
