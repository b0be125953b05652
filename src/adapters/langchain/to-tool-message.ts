import { ToolMessage } from '@langchain/core/messages';
import type { CallResult } from '../../tool/index.js';
import { callResultText } from '../shared/index.js';

/**
 * A call's result as LangChain's answer to the tool call: the text the model reads (for a
 * failure, hintgate's explanation of it), `status: 'error'` for every result with
 * `isError` (a denial, a timeout, a tool's error), and the whole `CallResult` as the
 * message's `artifact`, which the app sees and the model does not.
 */
export function toToolMessage(result: CallResult, toolCallId: string): ToolMessage {
  return new ToolMessage({
    content: callResultText(result),
    tool_call_id: toolCallId,
    name: result.name,
    status: result.isError ? 'error' : 'success',
    artifact: result,
  });
}
