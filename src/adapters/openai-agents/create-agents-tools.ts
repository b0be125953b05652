import { randomUUID } from 'node:crypto';
import { type FunctionTool, type RunContext, type ToolInputParameters, tool } from '@openai/agents';
import { HintgateError } from '../../errors/index.js';
import type { DecideOptions, ExecuteOptions, Runtime, ToolCall } from '../../runtime/index.js';
import type { ToolListing } from '../../tool/index.js';
import { type AgentsToolsOptions, checkAgentsToolsOptions } from './agents-tools-options.js';
import { approvalFromRunContext } from './approval-from-run-context.js';
import { CallOrder } from './call-order.js';
import { type AgentsToolOutput, toAgentsOutput } from './to-agents-output.js';

/** A function tool made by {@link createAgentsTools}. */
export type AgentsTool = FunctionTool<unknown, AgentsToolParameters, AgentsToolOutput>;

/** The JSON Schema of an adapter tool's parameters, as the SDK types it. */
export type AgentsToolParameters = StrictParameters | NonStrictParameters;

type StrictParameters = Extract<ToolInputParameters, { readonly additionalProperties: false }>;
type NonStrictParameters = Extract<ToolInputParameters, { readonly additionalProperties: true }>;
/** What the SDK hands a function tool's `execute` besides its input and run context. */
type ToolCallDetails = Parameters<AgentsTool['invoke']>[2];

/** Stands for the run of a call that comes without the SDK's run context. */
const NO_CONTEXT = {};

/** What every tool of one {@link createAgentsTools} call shares. */
interface Shared {
  readonly runtime: Runtime;
  readonly order: CallOrder;
  readonly decideOptions: DecideOptions;
  readonly alwaysApprove: 'session' | 'always';
}

/** The function tool of one listed hintgate tool, strict or not. */
const agentsTool = (listing: ToolListing, strict: boolean, shared: Shared): AgentsTool => {
  const { runtime, order, decideOptions, alwaysApprove } = shared;
  const { name } = listing;
  // The name the SDK gives the tool (it replaces characters the API does not take), which
  // is also the name its approvals are recorded under.
  let sdkName = name;
  const needsApproval = async (
    runContext: RunContext<unknown>,
    input: unknown,
    callId?: string,
  ): Promise<boolean> => {
    if (callId === undefined) {
      const decision = await runtime.decide(
        { id: randomUUID(), name, arguments: input },
        decideOptions,
      );
      return decision.decision === 'ask';
    }
    // Taken now, before any await: the SDK checks the calls of a step in the model's order.
    const checked = order.check(callId, runContext);
    try {
      // Checked again when the run resumes after the person approved: the approval holds.
      if (runContext.isToolApproved({ toolName: sdkName, callId }) === true) {
        order.expect(checked);
        return true;
      }
      const { decision } = await runtime.decide(
        { id: callId, name, arguments: input },
        decideOptions,
      );
      // A call hintgate denies runs too: its result is the denial, for the model to read.
      if (decision === 'ask') order.drop(checked);
      else order.expect(checked);
      return decision === 'ask';
    } catch (error) {
      order.drop(checked);
      throw error;
    }
  };
  const execute = async (
    input: unknown,
    runContext?: RunContext<unknown>,
    details?: ToolCallDetails,
  ): Promise<AgentsToolOutput> => {
    const callId = details?.toolCall?.callId ?? randomUUID();
    const signal = details?.signal;
    const approval =
      runContext === undefined
        ? undefined
        : approvalFromRunContext(runContext, sdkName, callId, alwaysApprove);
    const call: ToolCall = { id: callId, name, arguments: input };
    const options = {
      ...(signal === undefined ? {} : { signal }),
      ...(approval === undefined ? {} : { approval }),
    };
    const result = await order.admit(callId, runContext ?? NO_CONTEXT, signal, (turn) =>
      turn.call(call, options),
    );
    return toAgentsOutput(result);
  };
  // The SDK may rewrite the schema it is given (strict mode): give it a copy.
  const parameters = structuredClone(listing.inputSchema);
  const made = strict
    ? tool({
        name,
        description: listing.description,
        parameters: parameters as StrictParameters,
        strict: true,
        needsApproval,
        execute,
        // Failures are results; what throws (a closed runtime, a failed audit write) stops the run.
        errorFunction: null,
      })
    : tool({
        name,
        description: listing.description,
        parameters: parameters as NonStrictParameters,
        strict: false,
        needsApproval,
        execute,
        errorFunction: null,
      });
  sdkName = made.name;
  return made as AgentsTool;
};

/** The tool in strict mode when the SDK can make its schema strict, as `strict` asks. */
const toAgentsTool = (
  listing: ToolListing,
  strict: boolean | 'auto',
  shared: Shared,
): AgentsTool => {
  if (strict === false) return agentsTool(listing, false, shared);
  try {
    return agentsTool(listing, true, shared);
  } catch (error) {
    if (strict === 'auto') return agentsTool(listing, false, shared);
    throw new HintgateError(
      'invalid_schema',
      `createAgentsTools: the OpenAI Agents SDK cannot use the input schema of tool "${listing.name}" in strict mode (${(error as Error).message}). Pass strict: 'auto' to offer such tools without strict mode, or simplify the schema.`,
      { cause: error },
    );
  }
};

/**
 * The tools of a hintgate runtime as OpenAI Agents SDK (`@openai/agents`) function tools,
 * for `new Agent({ tools })`. Each call the model makes runs through the runtime:
 *
 * - **Order.** The calls of one model response go into one hintgate turn in the model's
 *   order, so calls that conflict run in that order and the others at once (the SDK starts
 *   them together).
 * - **Approvals.** A call hintgate's policy asks about needs approval in the SDK
 *   (`needsApproval`): the run stops with it among `result.interruptions`, and the person's
 *   `result.state.approve(item)` / `reject(item, { message })` answers it, also after
 *   `state.toString()` / `RunState.fromString()`. An approval reaches hintgate with the
 *   call, audited and remembered (`once`; with `alwaysApprove`, see
 *   {@link AgentsToolsOptions.alwaysApprove}); a rejection is the SDK's own, and the call
 *   never reaches hintgate.
 * - **Results.** A result is the call's text (with images as image outputs); a call that
 *   failed, was denied or timed out reads `Error (<code>): <why>` to the model.
 *
 * The tools are made from the runtime's tool list at this call: make them again when its
 * tools change.
 *
 * @throws HintgateError `invalid_option` for bad options; `duplicate_tool` when two tool
 * names become the same function name (the SDK replaces characters other than letters,
 * digits with `_`); `invalid_schema` for a schema strict mode cannot take with
 * `strict: true`.
 */
export function createAgentsTools(options: AgentsToolsOptions): AgentsTool[] {
  checkAgentsToolsOptions(options);
  const { runtime, scopes, session } = options;
  const turnOptions: ExecuteOptions = {
    ...(scopes === undefined ? {} : { scopes }),
    ...(session === undefined ? {} : { session }),
  };
  const shared: Shared = {
    runtime,
    order: new CallOrder(() => runtime.turn(turnOptions)),
    decideOptions: turnOptions,
    alwaysApprove: options.alwaysApprove ?? 'session',
  };
  const listings = runtime.listTools(scopes === undefined ? undefined : { scopes });
  const byName = new Map<string, string>();
  return listings.map((listing) => {
    const made = toAgentsTool(listing, options.strict ?? 'auto', shared);
    const other = byName.get(made.name);
    if (other !== undefined) {
      throw new HintgateError(
        'duplicate_tool',
        `createAgentsTools: tools "${other}" and "${listing.name}" both become the function "${made.name}" in the OpenAI Agents SDK, which turns every character but letters and digits into "_". Rename one of them, or leave one out with scopes.`,
      );
    }
    byName.set(made.name, listing.name);
    return made;
  });
}
