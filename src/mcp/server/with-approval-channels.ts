import { HintgateError } from '../../errors/index.js';
import type { ApprovalAnswer, Approver } from '../../policy/index.js';
import { firstAnswer } from '../../policy/index.js';

/**
 * Whether an answer only says that its channel cannot ask anyone: a denial nobody made
 * (`asked: false`), except the pending round of a 2026-07-28 request, whose question has
 * gone to the client (`input_required`) and whose answer comes with the client's retry.
 */
const cannotAsk = (answer: ApprovalAnswer): boolean =>
  answer.decision === 'deny' &&
  answer.asked === false &&
  answer.answeredBy?.channel !== 'input_required';

/**
 * Offers each approval to the approval channels besides the client's own (the web console,
 * a terminal): `firstAnswer` over the client's approver and `channels`, the first answer
 * winning. A client that cannot ask its user does not end the wait while a channel may
 * answer; a 2026-07-28 round that passes the question to the client (`input_required`)
 * does, since its answer can only come with the client's retry. Without channels the
 * client's approver is used as it is.
 *
 * @throws HintgateError `invalid_option` when `channels` is not an array of approvers.
 */
export function withApprovalChannels(
  channels: readonly Approver[] | undefined,
): (client: Approver) => Approver {
  if (channels === undefined) return (client) => client;
  if (!Array.isArray(channels) || channels.some((channel) => typeof channel !== 'function')) {
    throw new HintgateError(
      'invalid_option',
      'approvalChannels must be an array of approvers (request, { signal }) => answer.',
    );
  }
  if (channels.length === 0) return (client) => client;
  const list = [...channels];
  return (client) => firstAnswer([client, ...list], { unavailable: cannotAsk });
}
