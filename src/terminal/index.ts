export {
  createTerminalApprover,
  type TerminalApproverOptions,
  type TerminalInput,
} from './create-terminal-approver.js';
export { paint } from './format-approval-request.js';
export { neutralizeTerminalText } from './neutralize-terminal-text.js';
