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
 * Where the call `callId` stands in its model message, from the graph state LangChain hands
 * a tool (`config.state`, with the conversation's `messages`): the ids of the message's
 * calls to tools named in `names` that have no answer yet, in the model's order. Undefined
 * when the state has no message holding the call (a tool invoked by hand).
 *
 * @param configurable The run's `configurable`, whose thread and namespace tell the
 *   messages of different runs apart.
 */
export function findStepPlace(
  state: unknown,
  configurable: unknown,
  callId: string,
  names: ReadonlySet<string>,
): StepPlace | undefined {
  if (!isPlainObject(state)) return undefined;
  const { messages } = state;
  if (!Array.isArray(messages)) return undefined;
  for (let at = messages.length - 1; at >= 0; at -= 1) {
    const message: unknown = messages[at];
    if (!AIMessage.isInstance(message)) continue;
    const calls = message.tool_calls ?? [];
    if (!calls.some((call) => call.id === callId)) continue;
    // Calls already answered (before an interrupt, or by a middleware) do not come again.
    const answered = new Set<string>();
    for (const later of messages.slice(at + 1)) {
      if (ToolMessage.isInstance(later)) answered.add(later.tool_call_id);
    }
    const order: string[] = [];
    for (const call of calls) {
      if (typeof call.id === 'string' && names.has(call.name) && !answered.has(call.id)) {
        order.push(call.id);
      }
    }
    const run = isPlainObject(configurable) ? configurable : {};
    const key = [
      part(run.thread_id),
      graphOf(run.checkpoint_ns),
      String(at),
      part(message.id),
      ...calls.map((call) => part(call.id)),
    ].join('\u0000');
    return { key, order };
  }
  return undefined;
}
