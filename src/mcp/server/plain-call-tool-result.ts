import { isPlainObject } from '../../tool/index.js';

/** `_meta` keys the SDK's schema checks the values of; a `_meta` with them is left to it. */
const CHECKED_META_KEYS = ['progressToken', 'io.modelcontextprotocol/related-task'] as const;

/**
 * A plain object whose own keys the SDK's schemas copy as they are: no `__proto__` key
 * (copying it sets the copy's prototype instead, so the key is lost) and no symbol keys
 * (a record refuses them).
 */
const isCopiedAsIs = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) &&
  !Object.hasOwn(value, '__proto__') &&
  Object.getOwnPropertySymbols(value).length === 0;

const isPlainMeta = (meta: unknown): meta is Record<string, unknown> =>
  isCopiedAsIs(meta) && !CHECKED_META_KEYS.some((key) => Object.hasOwn(meta, key));

/** Text blocks rebuilt as the schema outputs them, or undefined for any other content. */
const textBlocks = (content: unknown): Array<{ type: 'text'; text: string }> | undefined => {
  if (!Array.isArray(content)) return undefined;
  const blocks: Array<{ type: 'text'; text: string }> = [];
  for (let index = 0; index < content.length; index += 1) {
    const block: unknown = content[index];
    if (
      !isPlainObject(block) ||
      block.type !== 'text' ||
      typeof block.text !== 'string' ||
      Object.keys(block).length !== 2
    ) {
      return undefined;
    }
    blocks.push({ type: 'text', text: block.text });
  }
  return blocks;
};

/**
 * `result` as the SDK's 2025-11-25 `CallToolResult` schema passes it on (same keys, in the
 * same order: `_meta`, `content`, `structuredContent`, `isError`), when that schema
 * certainly accepts it; `undefined` when it is not sure, and the SDK should check it.
 * Certain: a plain object with `content` of text blocks that have `type` and a string
 * `text` and nothing else, and optionally a plain `_meta` (without the keys the schema
 * checks), a plain-object `structuredContent` and a boolean `isError`; nothing else.
 * Images, audio, resources, annotations, block `_meta` and any other key are left to the
 * SDK.
 */
export function plainCallToolResult(result: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(result)) return undefined;
  const { _meta: meta, content, structuredContent, isError } = result;
  let keys = 1;
  if (meta !== undefined || Object.hasOwn(result, '_meta')) {
    if (!isPlainMeta(meta)) return undefined;
    keys += 1;
  }
  if (structuredContent !== undefined || Object.hasOwn(result, 'structuredContent')) {
    if (!isCopiedAsIs(structuredContent)) return undefined;
    keys += 1;
  }
  if (isError !== undefined || Object.hasOwn(result, 'isError')) {
    if (typeof isError !== 'boolean') return undefined;
    keys += 1;
  }
  if (
    !Object.hasOwn(result, 'content') ||
    Object.keys(result).length !== keys ||
    Object.getOwnPropertySymbols(result).length > 0
  ) {
    return undefined;
  }
  const blocks = textBlocks(content);
  if (blocks === undefined) return undefined;
  return {
    ...(meta === undefined ? {} : { _meta: meta }),
    content: blocks,
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError === undefined ? {} : { isError }),
  };
}
