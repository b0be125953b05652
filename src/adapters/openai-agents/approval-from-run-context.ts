import type { RunContext } from '@openai/agents';
import type { ApprovalAnswer, RememberScope } from '../../policy/index.js';
import { sdkApproval } from './sdk-approval.js';

/**
 * The person's answer to a call, as the OpenAI Agents SDK holds it in the run's context,
 * turned into hintgate's approval answer: `state.approve(item)` approves this call only
 * (`once`); `state.approve(item, { alwaysApprove: true })` approves the tool for the rest of
 * the run, which hintgate remembers as `alwaysRemember`. `undefined` when the SDK holds no
 * approval for the call (it was not asked, or hintgate did not ask about it).
 *
 * A rejection never reaches this point: the SDK answers a rejected call itself, with the
 * rejection's `message`, and does not run the tool.
 */
export function approvalFromRunContext(
  runContext: RunContext<unknown>,
  toolName: string,
  callId: string,
  alwaysRemember: Exclude<RememberScope, 'once'>,
): ApprovalAnswer | undefined {
  const approval = sdkApproval(runContext, toolName, callId);
  if (approval === undefined) return undefined;
  return approval === 'tool'
    ? {
        decision: 'allow',
        remember: alwaysRemember,
        reason: 'approved for the rest of the run in the OpenAI Agents SDK (alwaysApprove)',
      }
    : { decision: 'allow', remember: 'once', reason: 'approved in the OpenAI Agents SDK' };
}
