import type { RunContext } from '@openai/agents';
import type { ToolCall } from '../../runtime/index.js';
import type { AdapterContext } from './adapter-context.js';
import { approvalFromRunContext } from './approval-from-run-context.js';
import { heldCallOutput } from './held-call-output.js';
import { type AgentsToolOutput, toAgentsOutput } from './to-agents-output.js';

/** Stands for the run of a call that comes without the SDK's run context. */
const NO_RUN = {};

/**
 * The SDK's `execute` of a call: hands it to hintgate in its step's turn, in the model's
 * order (see `CallOrder`), with the person's approval when the SDK holds one, and turns
 * the result into the tool's output.
 */
export async function executeCall(
  context: AdapterContext,
  call: ToolCall,
  sdkName: string,
  runContext: RunContext<unknown> | undefined,
  signal: AbortSignal | undefined,
): Promise<AgentsToolOutput> {
  const { order } = context;
  const checked = order.take(call.id, runContext ?? NO_RUN);
  if (checked?.heldBehind !== undefined) return heldCallOutput(checked, checked.heldBehind);
  const approval =
    runContext === undefined
      ? undefined
      : approvalFromRunContext(runContext, sdkName, call.id, context.alwaysApprove);
  const options = {
    ...(signal === undefined ? {} : { signal }),
    ...(approval === undefined ? {} : { approval }),
  };
  const result = await order.admit(checked, call.id, signal, (turn) => turn.call(call, options));
  return toAgentsOutput(result);
}
