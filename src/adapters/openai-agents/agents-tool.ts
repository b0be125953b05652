import { randomUUID } from 'node:crypto';
import { type FunctionTool, type RunContext, type ToolInputParameters, tool } from '@openai/agents';
import { HintgateError } from '../../errors/index.js';
import type { ToolCall } from '../../runtime/index.js';
import type { ToolListing } from '../../tool/index.js';
import type { AdapterContext } from './adapter-context.js';
import { checkCall } from './check-call.js';
import { executeCall } from './execute-call.js';
import type { AgentsToolOutput } from './to-agents-output.js';

/** A function tool made by `createAgentsTools`. */
export type AgentsTool = FunctionTool<unknown, AgentsToolParameters, AgentsToolOutput>;

/** The JSON Schema of an adapter tool's parameters, as the SDK types it. */
export type AgentsToolParameters = StrictParameters | NonStrictParameters;

type StrictParameters = Extract<ToolInputParameters, { readonly additionalProperties: false }>;
type NonStrictParameters = Extract<ToolInputParameters, { readonly additionalProperties: true }>;
/** What the SDK hands a function tool's `execute` besides its input and run context. */
type ToolCallDetails = Parameters<AgentsTool['invoke']>[2];

/** The function tool of one listed hintgate tool, strict or not. */
const makeTool = (listing: ToolListing, strict: boolean, context: AdapterContext): AgentsTool => {
  const { name } = listing;
  // The name the SDK gives the tool (it replaces characters the API does not take), which
  // is also the name it records approvals under.
  let sdkName = name;
  const needsApproval = async (
    runContext: RunContext<unknown>,
    input: unknown,
    callId?: string,
  ): Promise<boolean> => {
    const call: ToolCall = { id: callId ?? randomUUID(), name, arguments: input };
    return checkCall(context, runContext, call, sdkName);
  };
  const execute = (
    input: unknown,
    runContext?: RunContext<unknown>,
    details?: ToolCallDetails,
  ): Promise<AgentsToolOutput> => {
    const call: ToolCall = {
      id: details?.toolCall?.callId ?? randomUUID(),
      name,
      arguments: input,
    };
    return executeCall(context, call, sdkName, runContext, details?.signal);
  };
  // The SDK may rewrite the schema it is given (strict mode): give it a copy.
  const parameters = structuredClone(listing.inputSchema);
  const common = {
    name,
    description: listing.description,
    needsApproval,
    execute,
    // Failures are results; what throws (a closed runtime, a failed audit write) stops the run.
    errorFunction: null,
  };
  const made = strict
    ? tool({ ...common, parameters: parameters as StrictParameters, strict: true })
    : tool({ ...common, parameters: parameters as NonStrictParameters, strict: false });
  sdkName = made.name;
  return made as AgentsTool;
};

/**
 * The OpenAI Agents SDK function tool of a hintgate tool: in strict mode when `strict` is
 * `true`, or `'auto'` and the SDK can make the tool's schema strict.
 *
 * @throws HintgateError `invalid_schema` for a schema strict mode cannot take with
 * `strict: true`.
 */
export function agentsTool(
  listing: ToolListing,
  strict: boolean | 'auto',
  context: AdapterContext,
): AgentsTool {
  if (strict === false) return makeTool(listing, false, context);
  try {
    return makeTool(listing, true, context);
  } catch (error) {
    if (strict === 'auto') return makeTool(listing, false, context);
    throw new HintgateError(
      'invalid_schema',
      `createAgentsTools: the OpenAI Agents SDK cannot use the input schema of tool "${listing.name}" in strict mode (${(error as Error).message}). Pass strict: 'auto' to offer such tools without strict mode, or simplify the schema.`,
      { cause: error },
    );
  }
}
