// The terminal approver of hintgate (`hintgate/terminal`): ask a person at the terminal.

export {
  createTerminalApprover,
  type TerminalApproverOptions,
  type TerminalInput,
} from './terminal/index.js';
