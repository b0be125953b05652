import type { CallResult, ContentBlock } from '../../tool/index.js';

const stringField = (block: ContentBlock, field: string): string | undefined => {
  const value: unknown = (block as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
};

/** How a block that is not text reads to a model that is given text only. */
const describe = (block: ContentBlock): string => {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource') {
    const resource: unknown = (block as Record<string, unknown>).resource;
    if (typeof resource === 'object' && resource !== null) {
      const { text, uri } = resource as { text?: unknown; uri?: unknown };
      if (typeof text === 'string') return text;
      if (typeof uri === 'string') return `[resource ${uri}]`;
    }
    return '[resource]';
  }
  if (block.type === 'resource_link') {
    const uri = stringField(block, 'uri');
    return uri === undefined ? '[resource link]' : `[resource link ${uri}]`;
  }
  const mimeType = stringField(block, 'mimeType');
  return mimeType === undefined ? `[${block.type}]` : `[${block.type} ${mimeType}]`;
};

/**
 * The text of a call's result as a model reads it: its content blocks, one per line; blocks
 * that are not text (images, audio, resources without text) are named in brackets. For a
 * failed call this is the explanation hintgate wrote for the model.
 */
export function callResultText(result: Pick<CallResult, 'content'>): string {
  return result.content.map(describe).join('\n');
}
