import type { RunContext } from '@openai/agents';

/**
 * Whether the person approved the call in the OpenAI Agents SDK: `'call'` for this call
 * (`state.approve(item)`), `'tool'` for the tool for the rest of the run
 * (`state.approve(item, { alwaysApprove: true })`), `undefined` for no approval.
 */
export function sdkApproval(
  runContext: RunContext<unknown>,
  toolName: string,
  callId: string,
): 'call' | 'tool' | undefined {
  const { approvals } = runContext.toJSON();
  // The SDK's own check costs a thrown and caught exception per call: make it only in a run
  // that holds answers at all.
  if (Object.keys(approvals).length === 0) return undefined;
  if (runContext.isToolApproved({ toolName, callId }) !== true) return undefined;
  return approvals[toolName]?.approved === true ? 'tool' : 'call';
}
