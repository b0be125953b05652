export {
  type ApplyToolSettingsOptions,
  applyToolSettings,
} from './apply-tool-settings.js';
export { approvalKeyLines, opaqueLines, showBlankRuns } from './approval-details.js';
export type { DecideContext } from './authorizer.js';
export {
  type ApprovalAsk,
  type ApprovalOutcome,
  type Authorizer,
  allowAll,
  type CallRequest,
  type Decision,
} from './authorizer.js';
export { checkPolicy, readPolicy } from './check-policy.js';
export { compileGlob } from './compile-glob.js';
export { compileLinearGlob, type LinearGlobOptions } from './compile-linear-glob.js';
export type { SharedSessionApprovals } from './create-policy.js';
export {
  createPolicy,
  type PersistentApprovals,
  type PolicyAuthorizer,
  type PolicyOptions,
} from './create-policy.js';
export { decideCall, isOffered, visibleInMode } from './decide-call.js';
export {
  type DerivedApprovalKeys,
  deriveApprovalKeys,
  deriveCallApprovalKeys,
} from './derive-approval-keys.js';
export { type FirstAnswerOptions, firstAnswer } from './first-answer.js';
export { parsePolicyText } from './parse-policy-text.js';
export { POLICY_ADVICE, POLICY_KEY_ADVICE } from './policy-advice.js';
export {
  type ApprovalAnswer,
  type ApprovalAnswerer,
  type ApprovalKeyNote,
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
export { readToolSettings, type ToolSettings } from './read-tool-settings.js';
export { SessionApprovals } from './session-approvals.js';
