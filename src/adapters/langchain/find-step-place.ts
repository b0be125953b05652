import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { isPlainObject } from '../../tool/index.js';
import type { StepPlace } from './message-turns.js';

const part = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/**
 * The graph the tool runs in: its checkpoint namespace without the last segment, which
 * names the task (LangChain runs each tool call of a message as a task of its own).
 */
const graphOf = (namespace: unknown): string =>
  typeof namespace === 'string' ? namespace.split('|').slice(0, -1).join('|') : '';

/**
 * The model message whose calls a tool is answering, from the graph state LangChain hands
 * it (`config.state`, with the conversation's `messages`): the last `AIMessage` with tool
 * calls. Its place gives, once per message, the ids of its calls to tools named in `names`
 * that have no answer yet, in the model's order. Undefined when the state has no such
 * message (a tool invoked by hand). Costs the same whatever the number of calls of the
 * message, so a model that makes thousands of calls at once is not served in square time.
 *
 * @param configurable The run's `configurable`, whose thread and namespace tell the
 *   messages of different runs apart.
 */
export function findStepPlace(
  state: unknown,
  configurable: unknown,
  names: ReadonlySet<string>,
): StepPlace | undefined {
  if (!isPlainObject(state)) return undefined;
  const { messages } = state;
  if (!Array.isArray(messages)) return undefined;
  for (let at = messages.length - 1; at >= 0; at -= 1) {
    const message: unknown = messages[at];
    if (!AIMessage.isInstance(message)) continue;
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return undefined;
    const run = isPlainObject(configurable) ? configurable : {};
    const key = [
      part(run.thread_id),
      graphOf(run.checkpoint_ns),
      String(at),
      part(message.id),
      String(calls.length),
      part(calls[0]?.id),
      part(calls.at(-1)?.id),
    ].join('\u0000');
    const order = (): string[] => {
      // Calls already answered (before an interrupt, or by a middleware) do not come again.
      const answered = new Set<string>();
      for (const later of messages.slice(at + 1)) {
        if (ToolMessage.isInstance(later)) answered.add(later.tool_call_id);
      }
      return calls.flatMap((call) =>
        typeof call.id === 'string' && names.has(call.name) && !answered.has(call.id)
          ? [call.id]
          : [],
      );
    };
    return { key, order };
  }
  return undefined;
}
