import { HintgateError } from '../../errors/index.js';
import type { ExecuteOptions } from '../../runtime/index.js';
import type { AdapterContext } from './adapter-context.js';
import { type AgentsTool, agentsTool } from './agents-tool.js';
import { type AgentsToolsOptions, checkAgentsToolsOptions } from './agents-tools-options.js';
import { CallOrder } from './call-order.js';

/**
 * The tools of a hintgate runtime as OpenAI Agents SDK (`@openai/agents`) function tools,
 * for `new Agent({ tools })`. Each call the model makes runs through the runtime:
 *
 * - **Order.** The calls of one model response go into one hintgate turn in the model's
 *   order, so calls that conflict run in that order and the others at once (the SDK starts
 *   them together). A call that conflicts with an earlier call of the response that waits
 *   for a person does not run before it: it reads `Error (deferred): ...`, and the model
 *   makes it again once that call has its result.
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
 * names become the same function name (the SDK replaces every character but letters and
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
  const context: AdapterContext = {
    runtime,
    order: new CallOrder(() => runtime.turn(turnOptions)),
    callerOptions: turnOptions,
    alwaysApprove: options.alwaysApprove ?? 'session',
  };
  const listings = runtime.listTools(scopes === undefined ? undefined : { scopes });
  const byName = new Map<string, string>();
  return listings.map((listing) => {
    const made = agentsTool(listing, options.strict ?? 'auto', context);
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
