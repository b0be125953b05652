import type { ToolOutputImage, ToolOutputText } from '@openai/agents';
import type { CallResult, ContentBlock } from '../../tool/index.js';
import { callResultText } from '../shared/index.js';

/** What a function tool made by the adapter returns to the OpenAI Agents SDK. */
export type AgentsToolOutput = string | Array<ToolOutputText | ToolOutputImage>;

/** An MCP image block as the SDK's image output, when it has the fields that needs. */
const imageOutput = (block: ContentBlock): ToolOutputImage | undefined => {
  if (block.type !== 'image') return undefined;
  const { data, mimeType } = block as { data?: unknown; mimeType?: unknown };
  if (typeof data !== 'string' || typeof mimeType !== 'string') return undefined;
  return { type: 'image', image: { data, mediaType: mimeType } };
};

/**
 * A hintgate result as a function tool's output. The SDK's function-call output carries no
 * error flag, so a failed call (denied, invalid arguments, timeout, the tool's own error)
 * reads `Error (<code>): <hintgate's explanation>`, never the SDK's generic "An error
 * occurred" text. A successful result is its text; with images, a list of text and image
 * outputs in content order.
 */
export function toAgentsOutput(result: CallResult): AgentsToolOutput {
  if (result.isError) {
    const code = result.error?.code ?? 'tool_error';
    return `Error (${code}): ${callResultText(result)}`;
  }
  if (!result.content.some((block) => block.type === 'image')) return callResultText(result);
  return result.content.map(
    (block): ToolOutputText | ToolOutputImage =>
      imageOutput(block) ?? { type: 'text', text: callResultText({ content: [block] }) },
  );
}
