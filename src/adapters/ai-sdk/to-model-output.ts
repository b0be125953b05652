import type { ToolResultPart } from 'ai';
import type { CallResult, ContentBlock } from '../../tool/index.js';

/** What the model is given for a call's result, as the AI SDK types it (`ToolResultOutput`). */
export type AiSdkModelOutput = ToolResultPart['output'];

type ContentPart = Extract<AiSdkModelOutput, { type: 'content' }>['value'][number];

const stringField = (block: ContentBlock, field: string): string | undefined => {
  const value: unknown = (block as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
};

/** A file part for base64 data, or undefined when the block does not carry a usable pair. */
const filePart = (data: unknown, mediaType: unknown): ContentPart | undefined =>
  typeof data === 'string' && typeof mediaType === 'string' && mediaType !== ''
    ? { type: 'file', mediaType, data: { type: 'data', data } }
    : undefined;

/** How a block reads as text: its text, or its kind and address in brackets. */
const describe = (block: ContentBlock): string => {
  if (block.type === 'text') return typeof block.text === 'string' ? block.text : '';
  if (block.type === 'resource') {
    const resource: unknown = (block as Record<string, unknown>).resource;
    if (typeof resource === 'object' && resource !== null) {
      const { text, uri } = resource as { text?: unknown; uri?: unknown };
      if (typeof text === 'string') return text;
      if (typeof uri === 'string') return `[resource ${uri}]`;
    }
    return '[resource]';
  }
  const uri = stringField(block, 'uri');
  if (uri !== undefined) return `[${block.type} ${uri}]`;
  const mimeType = stringField(block, 'mimeType');
  return mimeType === undefined ? `[${block.type}]` : `[${block.type} ${mimeType}]`;
};

/** One MCP content block as an AI SDK content part: images, audio and blobs as files. */
const toPart = (block: ContentBlock): ContentPart => {
  if (block.type === 'image' || block.type === 'audio') {
    const part = filePart(block.data, block.mimeType);
    if (part !== undefined) return part;
  } else if (block.type === 'resource') {
    const resource: unknown = (block as Record<string, unknown>).resource;
    if (typeof resource === 'object' && resource !== null) {
      const { blob, mimeType } = resource as { blob?: unknown; mimeType?: unknown };
      const part = filePart(blob, mimeType);
      if (part !== undefined) return part;
    }
  }
  return { type: 'text', text: describe(block) };
};

/**
 * What the model reads of a hintgate result, in the AI SDK's terms: a failed call (denied,
 * invalid arguments, timeout, a tool's error, ...) as `error-text` with hintgate's
 * explanation, so that the model sees a tool error; a successful one as `text` when it is
 * one text block, else as `content` (text parts, and images, audio and binary resources as
 * file parts).
 */
export function toModelOutput(result: Pick<CallResult, 'content' | 'isError'>): AiSdkModelOutput {
  const { content } = result;
  if (result.isError) return { type: 'error-text', value: content.map(describe).join('\n') };
  const [first] = content;
  if (first === undefined) return { type: 'text', value: '' };
  if (content.length === 1 && first.type === 'text')
    return { type: 'text', value: describe(first) };
  return { type: 'content', value: content.map(toPart) };
}
