import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../policy/index.js';
import { NO_APPROVAL_CHANNEL, NO_APPROVAL_CHANNEL_WHY } from './approval-form.js';

/**
 * The approver, with `advice` for the call appended to a denial made because the client
 * cannot ask its user ({@link NO_APPROVAL_CHANNEL}): the ways to let that call run.
 */
export function withUnapprovableAdvice(
  approver: Approver,
  advice: (request: ApprovalRequest) => string | undefined,
): Approver {
  const advise = (request: ApprovalRequest, answer: ApprovalAnswer): ApprovalAnswer => {
    if (answer.decision !== 'deny' || answer.reason !== NO_APPROVAL_CHANNEL) return answer;
    let text: string | undefined;
    try {
      text = advice(request);
    } catch {
      text = undefined;
    }
    if (text === undefined || text === '') return answer;
    return { ...answer, reason: `${NO_APPROVAL_CHANNEL_WHY}. ${text.replace(/\.$/, '')}` };
  };
  return (request, options) => {
    const answer = approver(request, options);
    return answer instanceof Promise
      ? answer.then((value) => advise(request, value))
      : advise(request, answer);
  };
}
