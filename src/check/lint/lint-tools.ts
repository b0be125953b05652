import { HintgateError } from '../../errors/index.js';
import { isPlainObject, ownValue } from '../../tool/index.js';
import type { CheckFinding, CheckSeverity } from '../check-types.js';
import { lintAnnotations } from './lint-annotations.js';
import { type LintRuleId, lintRuleSeverity } from './lint-rules.js';
import { lintSchemas } from './lint-schemas.js';
import { lintStatedActions } from './lint-stated-actions.js';
import { DEFAULT_DESCRIPTION_BUDGET, lintTexts } from './lint-texts.js';
import { lintToolName } from './lint-tool-name.js';
import { readToolEntry, showValue } from './tool-entry.js';

/** Options of {@link lintTools}. */
export interface LintToolsOptions {
  /**
   * Most characters a tool description may have before `description-too-long` reports it.
   * A positive integer; default 1024 (about 256 tokens).
   */
  readonly descriptionBudget?: number;
}

const SEVERITY_RANK: Record<CheckSeverity, number> = { high: 0, medium: 1, low: 2 };

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Orders findings: most severe first, then by tool (findings without a tool first), rule
 * id, message and fix. Compares UTF-16 code units, never the locale, so the order is the
 * same on every machine.
 */
export function compareFindings(a: CheckFinding, b: CheckFinding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (a.tool === undefined ? (b.tool === undefined ? 0 : -1) : b.tool === undefined ? 1 : 0) ||
    compareText(a.tool ?? '', b.tool ?? '') ||
    compareText(a.id, b.id) ||
    compareText(a.message, b.message) ||
    compareText(a.fix, b.fix)
  );
}

/**
 * Lints the tools of one server's `tools/list` result, taken exactly as the server sent
 * them: anything malformed is a finding, never an exception. Checks names (MCP naming rules,
 * duplicates), annotations (missing, malformed, contradictory, and contradicted by the tool's
 * name or description), input and output schemas, descriptions and titles; the rules are
 * {@link LINT_RULES}, documented in `docs/check.md`. Returns findings sorted by
 * {@link compareFindings}, each once; the same input always gives the same output.
 *
 * @param server Name of the server, copied into every finding.
 * @param tools The `tools` array of the `tools/list` result.
 * @throws HintgateError `invalid_option` when `server` is not a non-empty string or
 * `descriptionBudget` is not a positive integer.
 */
export function lintTools(
  server: string,
  tools: readonly unknown[],
  options: LintToolsOptions = {},
): CheckFinding[] {
  if (typeof server !== 'string' || server === '') {
    throw new HintgateError('invalid_option', 'lintTools: server must be a non-empty name.');
  }
  const budget = options.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET;
  if (!Number.isSafeInteger(budget) || budget < 1) {
    throw new HintgateError(
      'invalid_option',
      `lintTools: descriptionBudget must be a positive integer (characters), got ${String(budget)}.`,
    );
  }

  const findings = new Map<string, CheckFinding>();
  const add = (
    id: LintRuleId,
    tool: string | undefined,
    message: string,
    fix: string,
    evidence?: readonly string[],
  ): void => {
    const finding: CheckFinding = {
      id,
      severity: lintRuleSeverity(id),
      server,
      ...(tool === undefined ? {} : { tool }),
      message,
      fix,
      ...(evidence === undefined ? {} : { evidence }),
    };
    findings.set(JSON.stringify([id, tool ?? null, message, fix, evidence ?? null]), finding);
  };

  if (!Array.isArray(tools)) {
    add(
      'tools-list-invalid',
      undefined,
      `The tools/list result has tools = ${showValue(tools)}, not an array, so no tool can be read.`,
      'Return `{ "tools": [ ... ] }` with one object per tool.',
    );
    return [...findings.values()];
  }

  const nameCounts = new Map<unknown, number>();
  for (const value of tools) {
    const name = isPlainObject(value) ? ownValue(value, 'name') : undefined;
    nameCounts.set(name, (nameCounts.get(name) ?? 0) + 1);
  }
  const indexesByName = new Map<string, number[]>();
  tools.forEach((value, index) => {
    const entry = readToolEntry(value, index);
    if (entry === undefined) {
      const name = isPlainObject(value) ? ownValue(value, 'name') : undefined;
      add(
        'tool-invalid',
        undefined,
        isPlainObject(value)
          ? `The tool at index ${index} has name ${showValue(name)}, not a string, so it cannot be called.`
          : `The tool at index ${index} is ${showValue(value)}, not an object.`,
        'Send every tool as an object with a `name` string, a `description` and an `inputSchema`.',
      );
      return;
    }
    indexesByName.set(entry.name, [...(indexesByName.get(entry.name) ?? []), index]);
    // Findings of tools that share a name would be indistinguishable without their place.
    const shared = (nameCounts.get(entry.name) ?? 0) > 1;
    const report = (
      id: LintRuleId,
      message: string,
      fix: string,
      evidence?: readonly string[],
    ): void =>
      add(
        id,
        entry.name,
        message,
        fix,
        shared ? [`listed at index ${index}`, ...(evidence ?? [])] : evidence,
      );
    lintToolName(entry, report);
    lintAnnotations(entry, report);
    lintStatedActions(entry, report);
    lintSchemas(entry, report);
    lintTexts(entry, report, budget);
  });

  for (const [name, indexes] of indexesByName) {
    if (indexes.length < 2) continue;
    add(
      'tool-name-duplicate',
      name,
      `${indexes.length} tools are named ${JSON.stringify(name)} (at indexes ${indexes.join(', ')}); a call by that name reaches only one of them.`,
      'Give each tool its own name, or remove the extra entries from the list.',
    );
  }

  return [...findings.values()].sort(compareFindings);
}
