import { HintgateError } from '../errors/index.js';
import type { Mode } from '../policy/index.js';
import type { ToolClass } from '../tool/index.js';
import { type PromptTool, resolveMode } from './prompt-tool.js';
import { type ToolSearchIndex, toolSearchIndex } from './tool-search-index.js';

/** Options of {@link selectTools}. */
export interface SelectToolsOptions<T extends PromptTool = PromptTool> {
  /**
   * The whole catalog. Names must be unique. Its search index is built on the first call and
   * cached per array, so pass the same array again while the catalog is unchanged (a changed
   * array is noticed and indexed again).
   */
  readonly tools: readonly T[];
  /** Most tools to return from the ranking (a positive integer); `alwaysActive` comes on top. */
  readonly maxTools: number;
  /**
   * Leaves tools whose effective class is `destructive` out of the ranking (tools that
   * declare nothing count as destructive). `alwaysActive` tools are kept even so. Default false.
   */
  readonly excludeDestructive?: boolean;
  /**
   * Names of tools to include whatever the query: appended after the ranked tools in the
   * order given, when not already among them. They are included even beyond `maxTools` and
   * even when destructive and `excludeDestructive` is set; only `plan` mode removes them if
   * they are not read-only. Every name must be in `tools`. Default none.
   */
  readonly alwaysActive?: readonly string[];
  /**
   * The approval mode. In `plan` every tool that is not read-only is removed, from the
   * ranking and from `alwaysActive` alike: plan mode never offers a tool that changes
   * anything. Default `'ask'` (no filtering).
   */
  readonly mode?: Mode;
}

/**
 * Picks the tools most relevant to a request from a large catalog, so that the model sees
 * only a few of them. Ranks with a full-text index (MiniSearch, BM25) over each tool's name
 * (split into words at `_`, `.`, `-` and camelCase), title, top-level parameter names and
 * description, and the descriptions of those parameters, in that order of weight, with
 * prefix and fuzzy matching. Tools that match no word of the query are not returned;
 * common words ("what", "my", "a") are ignored. A blank query, or one of common words only,
 * returns the first `maxTools` tools by name.
 *
 * Returns at most `maxTools` ranked tools, best first (equal scores by name, so the result
 * is deterministic), then the `alwaysActive` tools not already present. The filters
 * (`excludeDestructive`, `plan` mode) apply before `maxTools` is counted.
 *
 * @throws {HintgateError} `invalid_option` for a bad option or an `alwaysActive` name that
 *   is not in the catalog, `duplicate_tool` when two tools share a name.
 */
export function selectTools<T extends PromptTool>(
  query: string,
  options: SelectToolsOptions<T>,
): T[] {
  if (typeof query !== 'string') {
    throw new HintgateError(
      'invalid_option',
      'selectTools: query must be a string (may be empty).',
    );
  }
  const { tools, maxTools } = options;
  if (!Number.isSafeInteger(maxTools) || maxTools < 1) {
    throw new HintgateError(
      'invalid_option',
      `selectTools: maxTools must be a positive integer; got ${String(maxTools)}.`,
    );
  }
  const mode = resolveMode(options.mode, 'selectTools');
  if (!Array.isArray(tools)) {
    throw new HintgateError('invalid_option', 'selectTools: tools must be an array of tools.');
  }
  const index = toolSearchIndex(tools, 'selectTools');
  const alwaysActive = checkAlwaysActive(options.alwaysActive, index);

  const allowed = (id: number, ranked: boolean): boolean => {
    const toolClass = index.classes[id] as ToolClass;
    if (mode === 'plan' && toolClass !== 'read') return false;
    return !(ranked && options.excludeDestructive === true && toolClass === 'destructive');
  };

  let ranked: number[];
  if (index.hasTerms(query)) {
    ranked = index.rank(query, maxTools, (id) => allowed(id, true));
  } else {
    ranked = [];
    for (const id of index.byName) {
      if (ranked.length >= maxTools) break;
      if (allowed(id, true)) ranked.push(id);
    }
  }

  const selected = ranked.map((id) => tools[id] as T);
  const names = new Set(selected.map((tool) => tool.name));
  for (const id of alwaysActive) {
    const tool = tools[id] as T;
    if (!names.has(tool.name) && allowed(id, false)) {
      selected.push(tool);
      names.add(tool.name);
    }
  }
  return selected;
}

function checkAlwaysActive(
  alwaysActive: readonly string[] | undefined,
  index: ToolSearchIndex,
): number[] {
  if (alwaysActive === undefined) return [];
  if (!Array.isArray(alwaysActive)) {
    throw new HintgateError(
      'invalid_option',
      'selectTools: alwaysActive must be an array of tool names.',
    );
  }
  return alwaysActive.map((name: unknown) => {
    const id = typeof name === 'string' ? index.positions.get(name) : undefined;
    if (id === undefined) {
      throw new HintgateError(
        'invalid_option',
        `selectTools: alwaysActive names ${JSON.stringify(name)}, which is not in tools; remove it or add the tool to the catalog.`,
      );
    }
    return id;
  });
}
