import type { ToolArguments } from '../tool/resource-template.js';
import type { Tool } from '../tool/tool.js';

/**
 * The approval keys of a call: the tool's `approvalKey(args)` when it has one, else its
 * resource keys, else `*` (the whole tool). Deterministic for equal arguments.
 */
export function deriveApprovalKeys(
  tool: Pick<Tool, 'approvalKey'>,
  args: ToolArguments,
  resourceKeys: readonly string[],
): string[] {
  if (tool.approvalKey !== undefined) {
    const keys = tool.approvalKey(args);
    const list = typeof keys === 'string' ? [keys] : [...keys];
    const clean = [...new Set(list.filter((key) => typeof key === 'string' && key !== ''))];
    if (clean.length > 0) return clean.sort();
  }
  if (resourceKeys.length > 0) return [...new Set(resourceKeys)].sort();
  return ['*'];
}
