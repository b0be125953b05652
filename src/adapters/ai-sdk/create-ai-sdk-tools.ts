import {
  dynamicTool,
  type JSONSchema7,
  jsonSchema,
  type ModelMessage,
  type SingleToolApprovalFunction,
  type ToolApprovalStatus,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import type { ApprovalAnswer, RememberScope } from '../../policy/index.js';
import type { DecideOptions, Runtime, ToolCall } from '../../runtime/index.js';
import type { CallResult, ToolListing } from '../../tool/index.js';
import { type AiSdkToolsOptions, checkAiSdkToolsOptions } from './ai-sdk-tools-options.js';
import { approvalInMessages } from './approval-in-messages.js';
import { issuedAsks } from './issued-asks.js';
import { type Step, StepOrder } from './step-order.js';
import { toModelOutput } from './to-model-output.js';

/** How the adapter answers the AI SDK's question "does this call need approval?". */
export type AiSdkToolApproval = SingleToolApprovalFunction<unknown, unknown, unknown>;

/** What {@link createAiSdkTools} returns: spread it into `generateText`, `streamText` or a `ToolLoopAgent`. */
export interface AiSdkTools {
  /** The runtime's tools as AI SDK tools (dynamic tools, one per listed hintgate tool). */
  readonly tools: ToolSet;
  /**
   * The AI SDK's `toolApproval` for these tools: a call hintgate would ask about becomes a
   * `tool-approval-request`, and so does a later call of the same step that has to run
   * after it. Pass it along with `tools`, or calls that ask are put to the runtime's own
   * approver (denied without one) and a step's calls lose their guaranteed order.
   */
  readonly toolApproval: Record<string, AiSdkToolApproval>;
}

/** Default of `AiSdkToolsOptions.orderGraceMs`. */
const DEFAULT_ORDER_GRACE_MS = 1_000;

/** What every tool of one {@link createAiSdkTools} call shares. */
interface Shared {
  readonly runtime: Runtime;
  readonly order: StepOrder;
  readonly decideOptions: DecideOptions;
  readonly session: string | null | undefined;
  readonly remember: RememberScope;
}

/** The earlier call of the step that waits for a person and that `call` would have to wait for. */
const askedBefore = async (
  runtime: Runtime,
  step: Step,
  call: ToolCall,
  decideOptions: DecideOptions,
): Promise<ToolCall | undefined> => {
  if (step.asked.some((asked) => asked.id === call.id)) return undefined;
  const plan = await runtime.plan(
    [...step.asked, call],
    decideOptions.scopes === undefined ? undefined : { scopes: decideOptions.scopes },
  );
  const waitsFor = plan.at(-1)?.waitsFor ?? [];
  return step.asked.find((asked) => waitsFor.includes(asked.id));
};

const approvalCheck = (name: string, shared: Shared): AiSdkToolApproval => {
  const { runtime, order, decideOptions, session } = shared;
  return async (input, { toolCallId, messages }): Promise<ToolApprovalStatus> => {
    // Taken now, before any await: the SDK checks the calls of a step in the model's order.
    const step = order.step(messages);
    const entry = order.check(step, toolCallId);
    try {
      // The SDK checks an approved call again before it runs it: it runs, and hintgate
      // decides then, with the answer if this process asked (never ask anew here, or an
      // approval made up in the history would answer the new ask).
      if (approvalInMessages(messages, toolCallId)?.approved === true) {
        order.expect(entry);
        return undefined;
      }
      const call: ToolCall = { id: toolCallId, name, arguments: input };
      const { decision, reason } = await runtime.decide(call, decideOptions);
      let ask = decision === 'ask' ? reason : undefined;
      if (decision === 'allow' && step.asked.length > 0) {
        const first = await askedBefore(runtime, step, call, decideOptions);
        if (first !== undefined) {
          ask = `it has to run after call ${first.id} (${first.name}), which waits for approval and changes what this call uses; approve both to run them in that order`;
        }
      }
      if (ask === undefined) {
        // A call hintgate denies runs too: its result is the denial, for the model to read.
        order.expect(entry);
        return undefined;
      }
      issuedAsks.issue(toolCallId, { name, arguments: input, session });
      step.asked.push(call);
      order.drop(step, entry);
      return { type: 'user-approval', reason: ask };
    } catch {
      // hintgate decides again when the call runs, and fails it there saying why.
      order.expect(entry);
      return undefined;
    }
  };
};

/** The answer the app gave to this adapter's ask about the call, if it gave one. */
const answerOf = (
  call: ToolCall,
  messages: readonly ModelMessage[],
  shared: Shared,
): ApprovalAnswer | undefined => {
  const given = approvalInMessages(messages, call.id);
  if (given?.approved !== true) return undefined;
  if (
    !issuedAsks.take(call.id, {
      name: call.name,
      arguments: call.arguments,
      session: shared.session,
    })
  ) {
    return undefined;
  }
  return {
    decision: 'allow',
    remember: given.remember ?? shared.remember,
    reason: given.reason ?? 'approved through the AI SDK tool approval',
  };
};

const aiSdkTool = (listing: ToolListing, shared: Shared) => {
  const { name } = listing;
  const execute = (
    input: unknown,
    { toolCallId, messages, abortSignal }: ToolExecutionOptions<unknown>,
  ): Promise<CallResult> => {
    const call: ToolCall = { id: toolCallId, name, arguments: input };
    const approval = issuedAsks.has(toolCallId) ? answerOf(call, messages, shared) : undefined;
    return shared.order.admit(toolCallId, messages, abortSignal, (turn) =>
      turn.call(call, {
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
        ...(approval === undefined ? {} : { approval }),
      }),
    );
  };
  return dynamicTool({
    description: listing.description,
    inputSchema: jsonSchema(listing.inputSchema as JSONSchema7),
    ...(listing.annotations === undefined
      ? {}
      : // `custom` holds what a tool declared, JSON from a listing or a literal in code.
        { metadata: { annotations: { ...listing.annotations } as Record<string, never> } }),
    execute,
    toModelOutput: ({ output }) => toModelOutput(output as CallResult),
  });
};

/**
 * A hintgate runtime's tools as AI SDK (v7) tools, with the `toolApproval` that puts
 * hintgate's asks to the person through the SDK's own approval flow:
 *
 * ```ts
 * const result = await generateText({ model, instructions: runtime.systemPrompt(), messages,
 *   ...createAiSdkTools({ runtime, session: chatId }) });
 * ```
 *
 * - **Order.** The calls of one step go through one hintgate turn in the order the model
 *   made them, whatever order the SDK starts them in, so hintgate's scheduling holds:
 *   independent calls run at once, a call that conflicts with an earlier one waits for it.
 * - **Approvals.** A call hintgate would ask about gets a `tool-approval-request` (reason:
 *   hintgate's), and so does a later call of the step that conflicts with one that waits
 *   (it must not overtake it). The app answers with a `tool-approval-response` (see
 *   {@link approvalResponse} for `remember`); the approved call then runs through hintgate
 *   with that answer, which hintgate records and remembers (`once`, `session`, `always`)
 *   as an approver's. Only answers to asks this process issued, for the same tool,
 *   arguments and session, count: any other approval found in a history is not trusted,
 *   and the call is put to the runtime's approver (denied without one).
 * - **Results.** `execute` returns hintgate's `CallResult` (`isError`, `status`, `error`,
 *   `content`, ...), and the model reads a failed call (a denial, bad arguments, a timeout,
 *   a tool's error) as an `error-text` tool error with hintgate's explanation.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createAiSdkTools(options: AiSdkToolsOptions): AiSdkTools {
  checkAiSdkToolsOptions(options);
  const { runtime, scopes, session } = options;
  const decideOptions: DecideOptions = {
    ...(scopes === undefined ? {} : { scopes }),
    ...(session === undefined ? {} : { session }),
  };
  const shared: Shared = {
    runtime,
    order: new StepOrder(
      () => runtime.turn(decideOptions),
      options.orderGraceMs ?? DEFAULT_ORDER_GRACE_MS,
    ),
    decideOptions,
    session,
    remember: options.remember ?? 'once',
  };
  const tools: ToolSet = {};
  const toolApproval: Record<string, AiSdkToolApproval> = {};
  for (const listing of runtime.listTools(scopes === undefined ? undefined : { scopes })) {
    tools[listing.name] = aiSdkTool(listing, shared);
    toolApproval[listing.name] = approvalCheck(listing.name, shared);
  }
  return { tools, toolApproval };
}
