import type { ApprovalAnswer, Approver } from '../policy/index.js';
import { createTerminalApprover, type TerminalApproverOptions } from '../terminal/index.js';

/**
 * The terminal approver as an approval channel of the gateway (`--terminal`): it asks in
 * the terminal the gateway runs in, one request at a time, and its answers are recorded as
 * given there (`answeredBy: { channel: 'terminal' }`). A request answered elsewhere first is
 * withdrawn from the terminal.
 */
export function terminalChannel(options: TerminalApproverOptions = {}): Approver {
  const approver = createTerminalApprover(options);
  const stamp = (answer: ApprovalAnswer): ApprovalAnswer =>
    answer.answeredBy === undefined ? { ...answer, answeredBy: { channel: 'terminal' } } : answer;
  return async (request, { signal }) => stamp(await approver(request, { signal }));
}
