import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { canonicalJson } from '../../audit/index.js';

/** How a tool list changed. */
export interface ToolListChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Tools whose definition (description, schemas, annotations, ...) changed. */
  readonly changed: readonly string[];
}

const byName = (tools: readonly McpTool[]): Map<string, string> =>
  new Map(tools.map((tool) => [tool.name, canonicalJson(tool)]));

/** What changed from `before` to `after`; `undefined` when the lists define the same tools. */
export function diffToolLists(
  before: readonly McpTool[],
  after: readonly McpTool[],
): ToolListChange | undefined {
  const old = byName(before);
  const now = byName(after);
  const added = [...now.keys()].filter((name) => !old.has(name)).sort();
  const removed = [...old.keys()].filter((name) => !now.has(name)).sort();
  const changed = [...now.keys()]
    .filter((name) => old.has(name) && old.get(name) !== now.get(name))
    .sort();
  return added.length + removed.length + changed.length === 0
    ? undefined
    : { added, removed, changed };
}

/** Evidence lines for a change: `tool added: x`, `tool removed: y`, `tool redefined: z`. */
export function formatToolListChange(change: ToolListChange): string[] {
  return [
    ...change.added.map((name) => `tool added: ${name}`),
    ...change.removed.map((name) => `tool removed: ${name}`),
    ...change.changed.map((name) => `tool redefined: ${name}`),
  ];
}
