import { HintgateError } from '../errors/index.js';
import type { Mode } from '../policy/index.js';
import type { ToolClass } from '../tool/index.js';
import {
  checkPromptTools,
  compareCodeUnits,
  oneLine,
  type PromptTool,
  promptToolClass,
  promptToolTitle,
  resolveMode,
} from './prompt-tool.js';

/** Options of {@link buildSystemPrompt}. */
export interface BuildSystemPromptOptions {
  /**
   * The tools the model can call, in any order: they are listed sorted by name. Names must
   * be unique. Each is classified by `effective` when present, else by its annotations with
   * the MCP spec defaults applied, so a tool that declares nothing is listed as destructive.
   */
  readonly tools: readonly PromptTool[];
  /**
   * The approval mode the runtime enforces, so that the model's expectations match it.
   * In `plan` mode only read-only tools are listed. Default `'ask'`.
   */
  readonly mode?: Mode;
  /**
   * Text placed before the tool list, such as the assistant's identity and task. Trailing
   * whitespace is dropped. Default: none; the prompt starts with the tool list.
   */
  readonly intro?: string;
  /**
   * Characters the tool lists may take at most, so that a catalog of thousands of tools
   * does not fill the model's context (the tool list the model is given has every tool
   * anyway). When the tools with their descriptions do not fit, they are listed without
   * descriptions; when the names do not fit either, each class gets a fair share and names
   * as many as fit, then says how many more it has. An integer of at least 1,000. Default
   * 16,000 (about 4,000 tokens).
   */
  readonly maxToolChars?: number;
}

/** Default of {@link BuildSystemPromptOptions.maxToolChars}. */
const DEFAULT_MAX_TOOL_CHARS = 16_000;

const GROUPS: readonly { readonly class: ToolClass; readonly heading: string }[] = [
  {
    class: 'read',
    heading:
      '### Read-only\nThese tools only look things up; they do not change anything. Results of tools that reach outside services may differ from one call to the next.',
  },
  {
    class: 'write',
    heading:
      '### Write\nThese tools change state, but do not declare that they delete or overwrite anything.',
  },
  {
    class: 'destructive',
    heading:
      '### Destructive\nThese tools may delete, overwrite or otherwise change data in ways that cannot be undone. Tools whose effects are unknown, because they declare nothing or their declarations are not trusted, are listed here too.',
  },
];

const READ_RULE =
  '- Read-only tools: use them whenever they help, without asking. If a call fails, you may call it again.';

const BATCH_RULE =
  "- When you need several calls whose arguments do not depend on each other's results, make them all in one turn instead of one per turn: they run at the same time, and calls that touch the same thing still run in the order you list them.";

const CHANGE_RULES = [
  '- Before you call a write tool, tell the user in plain words what will change.',
  '- Destructive tools: never call without explicit user confirmation. Never call a destructive tool unless the user has explicitly confirmed that exact action in this conversation. First say precisely what will be deleted or changed, then stop and wait for the answer.',
  '- If the user hesitates, says no or gives an unclear answer, do not call the tool.',
] as const;

const DENIED_RULE =
  '- When a call is denied, do not repeat it unchanged. Ask the user how to proceed or take another approach.';

const MODE_RULES: Readonly<Record<Mode, string>> = {
  plan: 'Current mode: plan. Only the read-only tools above are available; nothing can be changed in this mode. Investigate with them, then present the changes you would make as a plan (what, with which tool, and why) instead of making them.',
  ask: 'Current mode: ask. Read-only calls run directly. Every call that changes something waits for the user to approve it when it is made, so explain each change clearly enough to be judged.',
  auto: 'Current mode: auto. Read-only calls and non-destructive writes run without an approval prompt, so your explanation is the only notice the user gets. Destructive calls still wait for the user to approve them, in addition to the confirmation in the conversation.',
  allowlist:
    'Current mode: allowlist. Only calls the user approved in advance run directly; any other call waits for the user to approve it when it is made. Explain calls that may need approval.',
  yolo: 'Current mode: yolo. Calls run without any approval step, so nothing stops a mistake once you make it. Be extra careful: check the arguments of every change, and get the user to confirm destructive intent in the conversation before any destructive call.',
};

/**
 * Builds the tool section of a system prompt from the tools' annotations: the tools grouped
 * as Read-only, Write and Destructive, the safety rules for each group (with the rule to
 * make independent calls together in one turn, which lets them run at once), and the rules
 * of the current approval mode.
 *
 * The output depends only on the set of tools and the options: tools are sorted by name
 * (UTF-16 code-unit order), it carries no timestamps (and counts only of the tools a list
 * too long for `maxToolChars` leaves out), and it ends with exactly one newline, so an
 * unchanged catalog yields an identical prefix for prompt caching. Titles and descriptions
 * are collapsed to one line, so a tool's text cannot open a section of its own.
 *
 * @throws {HintgateError} `invalid_option` for a bad mode or tool entry, `duplicate_tool`
 *   when two tools share a name.
 */
export function buildSystemPrompt(options: BuildSystemPromptOptions): string {
  const mode = resolveMode(options.mode, 'buildSystemPrompt');
  checkPromptTools(options.tools, 'buildSystemPrompt');
  const sorted = [...options.tools].sort((a, b) => compareCodeUnits(a.name, b.name));
  const visible = mode === 'plan' ? GROUPS.slice(0, 1) : GROUPS;

  const sections: string[] = [];
  const intro = options.intro?.trimEnd() ?? '';
  if (intro !== '') sections.push(intro);

  const listed = visible
    .map((group) => ({
      heading: group.heading,
      tools: sorted.filter((tool) => promptToolClass(tool) === group.class),
    }))
    .filter((group) => group.tools.length > 0);
  const groups = toolGroups(listed, maxToolChars(options.maxToolChars));
  sections.push(
    groups.length > 0
      ? `## Tools\n\n${groups.join('\n\n')}`
      : '## Tools\n\nNo tools are available.',
  );

  const rules =
    mode === 'plan'
      ? [READ_RULE, BATCH_RULE, DENIED_RULE]
      : [READ_RULE, BATCH_RULE, ...CHANGE_RULES, DENIED_RULE];
  sections.push(`## Safety rules\n\n${rules.join('\n')}`);
  sections.push(`## Approval mode\n\n${MODE_RULES[mode]}`);
  return `${sections.join('\n\n')}\n`;
}

function maxToolChars(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_TOOL_CHARS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1000) {
    throw new HintgateError(
      'invalid_option',
      `buildSystemPrompt: maxToolChars must be an integer of at least 1000 (characters), got ${String(value)}.`,
    );
  }
  return value;
}

interface ListedGroup {
  readonly heading: string;
  readonly tools: readonly PromptTool[];
}

/** Characters of `lines` joined by newlines. */
const size = (lines: readonly string[]): number =>
  lines.reduce((sum, line) => sum + line.length + 1, 0);

/**
 * Each group's heading and tool lines within `budget` characters of tool lines: every tool
 * with its description if all fit; else without descriptions if all names fit; else each
 * group names what fits in its share (groups that need less than an even share leave the
 * rest to the others) and counts the rest.
 */
function toolGroups(groups: readonly ListedGroup[], budget: number): string[] {
  // Lines with descriptions are made only until they no longer fit.
  let used = 0;
  const full: string[][] = [];
  for (const group of groups) {
    const lines: string[] = [];
    for (const tool of group.tools) {
      const line = toolLine(tool);
      used += line.length + 1;
      if (used > budget) break;
      lines.push(line);
    }
    if (used > budget) break;
    full.push(lines);
  }
  if (used <= budget) {
    return groups.map((group, index) => `${group.heading}\n${(full[index] ?? []).join('\n')}`);
  }
  const short = groups.map((group) => group.tools.map(nameLine));
  const fits = size(short.flat()) <= budget;
  const note = fits
    ? 'Descriptions are left out here: there are too many tools; the tool list has them.'
    : `Only some of the ${groups.reduce((sum, group) => sum + group.tools.length, 0)} tools are named here: there are too many; the tool list has them all, and each tool's annotations say which kind it is.`;
  const kept = fits ? short : shares(short, budget);
  return groups.map((group, index) => {
    const lines = kept[index] ?? [];
    const more = group.tools.length - lines.length;
    const tail = more === 0 ? '' : `\n- ...and ${more} more`;
    const heading = index === 0 ? `${note}\n\n${group.heading}` : group.heading;
    return `${heading}\n${lines.join('\n')}${tail}`;
  });
}

/** The first lines of each group that fit its share of `budget`, smallest groups first. */
function shares(groups: readonly (readonly string[])[], budget: number): string[][] {
  const order = groups.map((lines, index) => ({ index, need: size(lines) }));
  order.sort((a, b) => a.need - b.need);
  const kept: string[][] = groups.map(() => []);
  let left = budget;
  order.forEach(({ index }, position) => {
    const share = Math.floor(left / (order.length - position));
    const lines = groups[index] ?? [];
    const need = size(lines);
    if (need <= share) {
      kept[index] = [...lines];
      left -= need;
      return;
    }
    const taken: string[] = [];
    // Room for the "...and N more" line.
    let used = 24;
    for (const line of lines) {
      if (used + line.length + 1 > share) break;
      taken.push(line);
      used += line.length + 1;
    }
    kept[index] = taken;
    left -= Math.min(used, share);
  });
  return kept;
}

/** A tool's line without its description. */
function nameLine(tool: PromptTool): string {
  const title = promptToolTitle(tool);
  return title === undefined ? `- ${oneLine(tool.name)}` : `- ${oneLine(tool.name)} (${title})`;
}

function toolLine(tool: PromptTool): string {
  const title = promptToolTitle(tool);
  const head =
    title === undefined ? `- ${oneLine(tool.name)}` : `- ${oneLine(tool.name)} (${title})`;
  const description = oneLine(tool.description);
  return description === '' ? head : `${head}: ${description}`;
}
