import { HintgateError } from '../errors/index.js';
import { DEFAULT_MODE, MODES, type Mode } from '../policy/index.js';
import type { EffectiveHints, JsonSchemaObject, ToolAnnotations } from '../tool/index.js';
import { classify, type ToolClass } from '../tool/index.js';

/**
 * A tool as the prompt builders see it. A `ToolListing` (what `toToolListing` returns
 * and `tools/list` carries) is one; so is any object with these fields.
 *
 * @see {@link buildSystemPrompt}, {@link selectTools}
 */
export interface PromptTool {
  /** The name the model calls the tool by. Names must be unique within one list. */
  readonly name: string;
  /** Display title; when absent, `annotations.title` is used if present. */
  readonly title?: string;
  /** What the tool does, for the model. Whitespace runs are collapsed to one space. */
  readonly description: string;
  /** Annotations as claimed, three states kept. Absent hints take the MCP spec defaults. */
  readonly annotations?: ToolAnnotations;
  /**
   * Arguments schema as JSON Schema. {@link selectTools} indexes the names and descriptions
   * of its top-level `properties`; {@link buildSystemPrompt} ignores it.
   */
  readonly inputSchema?: JsonSchemaObject;
  /**
   * The hints hintgate acts on, as a registry resolved them (the spec defaults for a tool
   * from an untrusted origin). When present, the tool is classified by these and
   * `annotations` are ignored, so an untrusted tool that claims to be read-only still
   * counts as destructive.
   */
  readonly effective?: EffectiveHints;
}

/**
 * The class of a prompt tool: from `effective` when present, else from `annotations` with
 * the MCP spec defaults applied (so a tool that claims nothing is `destructive`).
 */
export function promptToolClass(tool: PromptTool): ToolClass {
  return classify(tool.effective ?? tool.annotations);
}

/** Collapses every whitespace run (newlines included) to one space and trims the ends. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The display title of a tool on one line, or undefined when it has none. */
export function promptToolTitle(tool: PromptTool): string | undefined {
  const title = oneLine(tool.title ?? tool.annotations?.title ?? '');
  return title === '' ? undefined : title;
}

/** Checks a mode given at run time (plain JS callers, config files); absent means `ask`. */
export function resolveMode(mode: unknown, where: string): Mode {
  if (mode === undefined) return DEFAULT_MODE;
  if (typeof mode === 'string' && (MODES as readonly string[]).includes(mode)) {
    return mode as Mode;
  }
  throw new HintgateError(
    'invalid_option',
    `${where}: mode must be one of ${MODES.join(', ')}; got ${JSON.stringify(mode)}.`,
  );
}

/**
 * Checks a tool list: an array of objects with a string `name` and `description`, names
 * unique (two tools of one name would make the output depend on their order).
 */
export function checkPromptTools(tools: unknown, where: string): void {
  if (!Array.isArray(tools)) {
    throw new HintgateError('invalid_option', `${where}: tools must be an array of tools.`);
  }
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    const item: unknown = tool;
    if (
      typeof item !== 'object' ||
      item === null ||
      typeof (item as { name?: unknown }).name !== 'string' ||
      typeof (item as { description?: unknown }).description !== 'string'
    ) {
      throw new HintgateError(
        'invalid_option',
        `${where}: tools[${index}] must be an object with a string name and description.`,
      );
    }
    const name = (item as { name: string }).name;
    if (seen.has(name)) {
      throw new HintgateError(
        'duplicate_tool',
        `${where}: the tool name "${name}" appears more than once; give each tool a unique name.`,
      );
    }
    seen.add(name);
  }
}

/** Compares strings by UTF-16 code units, independent of locale. */
export function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
