export {
  createTerminalApprover,
  type TerminalApproverOptions,
  type TerminalInput,
} from './create-terminal-approver.js';
