import { randomUUID } from 'node:crypto';
import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import type { ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { ExecuteOptions, TurnCallOptions } from '../../runtime/index.js';
import { isPlainObject, type JsonSchemaObject, type ToolListing } from '../../tool/index.js';
import { approvalFor } from './approvals-state.js';
import { findStepPlace } from './find-step-place.js';
import {
  checkLangChainToolsOptions,
  type LangChainToolsOptions,
} from './langchain-tools-options.js';
import { MessageTurns } from './message-turns.js';
import { toToolMessage } from './to-tool-message.js';

/**
 * A LangChain tool made by {@link createLangChainTools}: it takes the arguments as an object
 * (checked against the tool's JSON Schema) and always answers with a `ToolMessage`.
 */
export type LangChainTool = DynamicStructuredTool<
  JsonSchemaObject,
  Record<string, unknown>,
  Record<string, unknown>,
  ToolMessage
>;

/** What every tool of one set shares. */
interface Shared {
  readonly turns: MessageTurns;
  /** Names of the set's tools: the calls of a message that come to it. */
  readonly names: ReadonlySet<string>;
}

/** What LangChain hands a tool besides its arguments, read defensively. */
interface ToolConfig {
  /** The tool call being answered, when the tool was invoked with one. */
  readonly toolCall?: unknown;
  /** The graph state (LangChain's `ToolNode` hands it to tools), with the messages. */
  readonly state?: unknown;
  readonly configurable?: unknown;
  readonly signal?: unknown;
}

const callIdOf = (toolCall: unknown): string | undefined => {
  if (!isPlainObject(toolCall)) return undefined;
  const { id } = toolCall;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/** The LangChain tool of one listed hintgate tool. */
const langChainTool = (listing: ToolListing, shared: Shared): LangChainTool => {
  const { name } = listing;
  const func = async (
    input: Record<string, unknown>,
    _runManager?: CallbackManagerForToolRun,
    runConfig?: RunnableConfig,
  ): Promise<ToolMessage> => {
    const config: ToolConfig = runConfig ?? {};
    const modelId = callIdOf(config.toolCall);
    const id = modelId ?? `langchain-${randomUUID()}`;
    const place =
      modelId === undefined
        ? undefined
        : findStepPlace(config.state, config.configurable, shared.names);
    const approval = modelId === undefined ? undefined : approvalFor(config.state, id, name, input);
    const options: TurnCallOptions = {
      ...(config.signal instanceof AbortSignal ? { signal: config.signal } : {}),
      ...(approval === undefined ? {} : { approval }),
    };
    const result = await shared.turns.run(id, place, (turn) =>
      turn.call({ id, name, arguments: input }, options),
    );
    return toToolMessage(result, id);
  };
  return new DynamicStructuredTool({
    name,
    description: listing.description,
    schema: listing.inputSchema,
    func,
    // LangChain checks the arguments against the schema before hintgate does: when it
    // refuses them, the model is told why.
    verboseParsingErrors: true,
    ...(listing.annotations === undefined
      ? {}
      : { metadata: { annotations: listing.annotations } }),
  });
};

/** Makes the tools of checked options. */
export function makeLangChainTools(options: LangChainToolsOptions): LangChainTool[] {
  const { runtime, scopes, session } = options;
  const turnOptions: ExecuteOptions = {
    ...(scopes === undefined ? {} : { scopes }),
    ...(session === undefined ? {} : { session }),
  };
  const listings = runtime.listTools(scopes === undefined ? {} : { scopes });
  const shared: Shared = {
    turns: new MessageTurns(() => runtime.turn(turnOptions)),
    names: new Set(listings.map((listing) => listing.name)),
  };
  return listings.map((listing) => langChainTool(listing, shared));
}

/**
 * A hintgate runtime's tools as LangChain tools (`StructuredTool`s), for `createAgent`,
 * LangGraph's `ToolNode` or a model's `bindTools`. Each call goes through the runtime:
 * policy, approvals, scheduling, timeouts, retries and audit. The calls of one model message
 * share one hintgate turn and are admitted in the model's order, so a read of a file the
 * message writes later runs before the write, and reads of other files run alongside.
 *
 * Each tool answers with a `ToolMessage`: the result's text, `status: 'error'` for a denied,
 * failed, timed-out or cancelled call, and the whole `CallResult` as its `artifact`. A call
 * the policy asks about goes to the runtime's approver, or takes the person's answer given
 * through {@link createHintgateMiddleware}, which asks through LangGraph's `interrupt()`.
 *
 * The tools are listed when they are made: make them again after the runtime's tools change.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createLangChainTools(options: LangChainToolsOptions): LangChainTool[] {
  checkLangChainToolsOptions(options, 'createLangChainTools');
  return makeLangChainTools(options);
}
