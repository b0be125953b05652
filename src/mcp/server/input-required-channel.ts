import {
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApprovalAnswer, ApprovalRequest } from '../../policy/index.js';
import type { ApprovalChannel } from './approval-channel.js';
import { answerFromElicitation, approvalForm, supportsFormElicitation } from './approval-form.js';
import type { ApprovalRoundState, ApprovalRounds } from './approval-rounds.js';
import { clientCapabilities } from './request-era.js';

/** Key of the approval in `inputRequests` / `inputResponses`. */
export const APPROVAL_INPUT_KEY = 'hintgate_approval';

/**
 * The approval channel of a 2026-07-28 request: the answer comes with the client's retry
 * of the call (`inputResponses`), bound to the call by the round's `requestState` (see
 * {@link ApprovalRounds}). On the first round the question is deferred (the call does not
 * run) and {@link ApprovalChannel.settle} turns it into the `input_required` result; a
 * retry whose arguments differ from those approved, or that replays a used round, is asked
 * again. Open when the request carries an answer or its client declared form elicitation.
 */
export function createInputRequiredChannel(
  server: Server,
  ctx: ServerContext,
  rounds: ApprovalRounds,
): ApprovalChannel {
  const state = ctx.mcpReq.requestState<ApprovalRoundState>();
  const response = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT_KEY);
  let asked: { readonly request: ApprovalRequest; readonly signal: AbortSignal } | undefined;
  const defer = (request: ApprovalRequest, signal: AbortSignal): ApprovalAnswer | undefined => {
    if (asked !== undefined) {
      // One call per tools/call, so one approval per round; a second would be a bug of ours.
      return { decision: 'deny', reason: 'only one approval can be asked per request' };
    }
    asked = { request, signal };
    return undefined;
  };
  return {
    name: 'input_required',
    // A retry that carries an answer is heard whatever the retry declares.
    canAsk: () =>
      response.kind === 'elicit' || supportsFormElicitation(clientCapabilities(server, ctx)),
    ask(request, signal) {
      if (response.kind === 'elicit') {
        const redeemed = rounds.redeem(state, request);
        if (redeemed instanceof Promise) {
          // Checked in a store shared with other processes: a replay is asked again.
          return redeemed.then((fresh) =>
            fresh ? answerFromElicitation(response) : defer(request, signal),
          );
        }
        if (redeemed === true) return answerFromElicitation(response);
      }
      return defer(request, signal);
    },
    async settle(): Promise<InputRequiredResult | undefined> {
      // Withdrawn: another channel answered the question.
      if (asked === undefined || asked.signal.aborted) return undefined;
      return inputRequired({
        inputRequests: { [APPROVAL_INPUT_KEY]: inputRequired.elicit(approvalForm(asked.request)) },
        requestState: await rounds.mint(asked.request, ctx),
      });
    },
  };
}
