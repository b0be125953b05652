import { AIMessage } from '@langchain/core/messages';
import { interrupt } from '@langchain/langgraph';
import { type AgentMiddleware, createMiddleware } from 'langchain';
import type { ApprovalAnswer } from '../../policy/index.js';
import type { DecideOptions, Runtime } from '../../runtime/index.js';
import { isPlainObject } from '../../tool/index.js';
import { type AskedCall, approvalRequest } from './approval-request.js';
import {
  APPROVALS_KEY,
  approvalsStateSchema,
  type GivenApproval,
  givenApproval,
} from './approvals-state.js';
import { type LangChainTool, makeLangChainTools } from './create-langchain-tools.js';
import {
  checkLangChainToolsOptions,
  type LangChainToolsOptions,
} from './langchain-tools-options.js';
import { readApprovalResponse } from './read-approval-response.js';

/** The middleware made by {@link createHintgateMiddleware}. */
export type HintgateMiddleware = AgentMiddleware<
  typeof approvalsStateSchema,
  undefined,
  unknown,
  readonly LangChainTool[]
>;

/** The calls of the model's last message that hintgate's policy asks about, in its order. */
const askedCalls = async (
  message: unknown,
  runtime: Runtime,
  names: ReadonlySet<string>,
  options: DecideOptions,
): Promise<AskedCall[]> => {
  if (!AIMessage.isInstance(message)) return [];
  const calls = (message.tool_calls ?? []).filter(
    (call) => typeof call.id === 'string' && call.id !== '' && names.has(call.name),
  );
  const decided = await Promise.all(
    calls.map(async (call) => {
      const id = call.id as string;
      const args: Record<string, unknown> = isPlainObject(call.args) ? call.args : {};
      const decision = await runtime.decide({ id, name: call.name, arguments: args }, options);
      return { id, name: call.name, args, decision };
    }),
  );
  return decided.filter((call) => call.decision.decision === 'ask');
};

/** Asks the person through LangGraph's `interrupt()` until the answer fits the calls asked. */
const askPerson = (asks: readonly AskedCall[]): ReadonlyMap<string, ApprovalAnswer> => {
  const ids = asks.map((ask) => ask.id);
  let retry: string | undefined;
  for (;;) {
    // On resume the hook runs again from the start: each interrupt() gives the next answer.
    const read = readApprovalResponse(interrupt(approvalRequest(asks, retry)), ids);
    if ('answers' in read) return read.answers;
    retry = read.retry;
  }
};

/**
 * A LangChain agent middleware (for `createAgent({ middleware })`) that brings a hintgate
 * runtime's tools into the agent and asks a person, through LangGraph's `interrupt()`,
 * about the calls hintgate's policy asks about.
 *
 * - **Tools.** The middleware carries the runtime's tools (those of
 *   {@link createLangChainTools}): do not pass them to `createAgent` again. The calls of
 *   one model message share one hintgate turn and are admitted in the model's order.
 * - **Approvals.** After each model response, hintgate decides every call of it
 *   (`runtime.decide`). When some ask, the agent stops before any call of the message
 *   runs, with one interrupt whose value is a {@link HintgateApprovalRequest} (the shape
 *   of LangChain's `HITLRequest`). Resume with `new Command({ resume: { decisions } })`
 *   ({@link HintgateApprovalResponse}): `approve` (with `remember: 'session'` or
 *   `'always'` to keep it) or `reject` (with a `message` the model reads). Then every call
 *   of the message runs in one turn; an answer counts as the approver's answer of that
 *   exact call (same tool, same arguments), is audited and remembered by hintgate. A
 *   rejected call reads to the model as a tool error, and the other calls still run.
 * - Needs a checkpointer on the agent (`interrupt()` does), as LangChain's own
 *   human-in-the-loop middleware does.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createHintgateMiddleware(options: LangChainToolsOptions): HintgateMiddleware {
  checkLangChainToolsOptions(options, 'createHintgateMiddleware');
  const { runtime, scopes, session } = options;
  const tools = makeLangChainTools(options);
  const names: ReadonlySet<string> = new Set(tools.map((tool) => tool.name));
  const decideOptions: DecideOptions = {
    ...(scopes === undefined ? {} : { scopes }),
    ...(session === undefined ? {} : { session }),
  };
  return createMiddleware({
    name: 'HintgateMiddleware',
    stateSchema: approvalsStateSchema,
    tools,
    afterModel: async (state) => {
      const asks = await askedCalls(state.messages.at(-1), runtime, names, decideOptions);
      if (asks.length === 0) {
        // Answers given for an earlier message are not carried over to this one.
        const earlier = state[APPROVALS_KEY];
        return earlier === undefined || Object.keys(earlier).length === 0
          ? undefined
          : { [APPROVALS_KEY]: {} };
      }
      const answers = askPerson(asks);
      // fromEntries keeps a call id such as "__proto__" as a key, as the model wrote it.
      const given: Record<string, GivenApproval> = Object.fromEntries(
        asks.flatMap((ask) => {
          const answer = answers.get(ask.id);
          return answer === undefined ? [] : [[ask.id, givenApproval(ask.name, ask.args, answer)]];
        }),
      );
      return { [APPROVALS_KEY]: given };
    },
  });
}
