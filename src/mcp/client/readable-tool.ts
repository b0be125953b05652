import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { ToolSchema } from '@modelcontextprotocol/core';
import { isPlainObject } from '../../tool/index.js';

/** What the MCP client's schema made of one tool a server listed. */
export interface ReadableTool {
  /** The tool, as listed or with the fields the client could not read left out; absent when it cannot be kept. */
  readonly tool?: McpTool;
  /** Each field left out (or why the tool could not be kept), in words. */
  readonly faults: readonly string[];
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
const TASK_SUPPORT = ['required', 'optional', 'forbidden'];

const optional = (value: unknown, check: (value: unknown) => boolean): boolean =>
  value === undefined || check(value);
const isString = (value: unknown): boolean => typeof value === 'string';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const strings = (value: unknown): boolean => Array.isArray(value) && value.every(isString);

const isIcon = (icon: unknown): boolean =>
  isPlainObject(icon) &&
  typeof icon.src === 'string' &&
  optional(icon.mimeType, isString) &&
  optional(icon.sizes, strings) &&
  optional(icon.theme, (theme) => theme === 'light' || theme === 'dark');

const isAnnotations = (value: unknown): boolean =>
  isPlainObject(value) &&
  optional(value.title, isString) &&
  HINTS.every((hint) => optional(value[hint], isBoolean));

/**
 * Whether the MCP client's `ToolSchema` surely accepts a tool parsed from JSON: the fields
 * it checks, each of the shape it wants. False is not a refusal, only "ask the schema":
 * `readableTool` then parses the tool with the SDK's own schema. `readable-tool.test.ts`
 * holds this to the SDK's verdict on generated tools.
 */
export const surelyReadable = (tool: unknown): boolean => {
  if (!isPlainObject(tool) || typeof tool.name !== 'string') return false;
  const input = tool.inputSchema;
  return (
    isPlainObject(input) &&
    input.type === 'object' &&
    optional(input.properties, isPlainObject) &&
    optional(input.required, strings) &&
    optional(tool.title, isString) &&
    optional(tool.description, isString) &&
    optional(tool.icons, (icons) => Array.isArray(icons) && icons.every(isIcon)) &&
    optional(tool.outputSchema, (s) => isPlainObject(s) && optional(s.$schema, isString)) &&
    optional(tool.annotations, isAnnotations) &&
    optional(
      tool.execution,
      (e) => isPlainObject(e) && optional(e.taskSupport, (t) => TASK_SUPPORT.includes(t as string)),
    ) &&
    optional(tool._meta, isPlainObject)
  );
};

/**
 * Fields a tool can be served without: left out when the client cannot read them. An
 * annotation hint left out takes the MCP default, which is the cautious one.
 */
const DROPPABLE = new Set(['title', 'description', 'icons', 'execution', '_meta', 'annotations']);

const pathText = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/**
 * One tool of a server's `tools/list` page, judged by the MCP client's own `ToolSchema`
 * before the client reads the page (where one tool the schema refuses fails the whole
 * page). A tool it accepts is kept as it is. One it refuses only for fields a tool can do
 * without (title, description, icons, execution, `_meta`, an annotation) is kept without
 * them; one whose name, input schema or output schema the schema refuses is not kept.
 */
export function readableTool(listed: unknown): ReadableTool {
  if (surelyReadable(listed)) return { tool: listed as McpTool, faults: [] };
  if (!isPlainObject(listed)) return { faults: ['the entry is not a JSON object'] };
  const parsed = ToolSchema.safeParse(listed);
  if (parsed.success) return { tool: listed as McpTool, faults: [] };
  const faults = parsed.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${pathText(issue.path)}: ${issue.message}`,
  );
  const repaired: Record<string, unknown> = { ...listed };
  for (const { path } of parsed.error.issues) {
    const [field, key] = path;
    if (typeof field !== 'string' || !DROPPABLE.has(field)) return { faults };
    const annotations = repaired.annotations;
    if (field === 'annotations' && typeof key === 'string' && isPlainObject(annotations)) {
      const rest = { ...annotations };
      delete rest[key];
      repaired.annotations = rest;
    } else delete repaired[field];
  }
  if (!ToolSchema.safeParse(repaired).success) return { faults };
  return { tool: repaired as McpTool, faults };
}
