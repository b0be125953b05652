import type { CheckFinding, ToolVerdict } from '../check-types.js';
import type { PlannedTool } from './probe-calls.js';
import { PROBE_RULE_IDS, PROBE_RULES, type ProbeRuleId } from './probe-rules.js';
import type { ProbeReport } from './probe-types.js';
import { formatToolListChange, type ToolListChange } from './tool-list-diff.js';

/** A claim of a tool the probe saw to be false. */
export interface Violation {
  readonly rule: ProbeRuleId;
  readonly message: string;
  readonly fix: string;
  readonly evidence: readonly string[];
}

/** What the probe learnt about one tool so far. */
export interface ToolRecord {
  readonly plan: PlannedTool;
  readonly violations: Violation[];
  readonly evidence: string[];
  inconclusive?: string;
  /** The tool could not be run (no arguments, failed calls): a `probe-call-failed` finding. */
  couldNotRun?: boolean;
  verified?: string;
}

/** Adds a violation, merged into an earlier one of the same rule. */
export function addViolation(record: ToolRecord, violation: Violation): void {
  const at = record.violations.findIndex((v) => v.rule === violation.rule);
  const earlier = record.violations[at];
  if (earlier === undefined) {
    record.violations.push(violation);
    return;
  }
  record.violations[at] = {
    ...earlier,
    evidence: [...new Set([...earlier.evidence, ...violation.evidence])],
  };
}

/** A change of the tool list, after calls to `tool` or between probed calls. */
export interface ListChangeEvent {
  readonly tool?: string;
  readonly change: ToolListChange;
  readonly context: string;
}

const severityOf = (rule: ProbeRuleId) =>
  PROBE_RULES.find((r) => r.id === rule)?.severity ?? 'high';

/** What {@link concludeProbe} concludes from. */
export interface ProbeOutcome {
  readonly server: string;
  /** Every tool of the first tool list, in its order. */
  readonly plans: readonly PlannedTool[];
  /** What was learnt, by tool name: one record per plan. */
  readonly records: ReadonlyMap<string, ToolRecord>;
  readonly listChanges: readonly ListChangeEvent[];
  /** How many `notifications/tools/list_changed` the server sent. */
  readonly listChangedCount: number;
}

/**
 * Turns what the probe learnt into one verdict per tool (violation, inconclusive with its
 * reason, or verified) and the probe's findings: one per violated rule, `probe-call-failed`
 * for tools that could not be run, and `probe-tool-list-changed` for list changes not
 * already reported against the tool whose calls preceded them.
 */
export function concludeProbe({
  server,
  plans,
  records,
  listChanges,
  listChangedCount,
}: ProbeOutcome): Pick<ProbeReport, 'verdicts' | 'findings'> {
  const verdicts: ToolVerdict[] = [];
  const findings: CheckFinding[] = [];
  const notified = `notifications/tools/list_changed received: ${listChangedCount}`;
  for (const plan of plans) {
    const r = records.get(plan.name) as ToolRecord;
    for (const v of r.violations) {
      findings.push({
        id: v.rule,
        severity: severityOf(v.rule),
        server,
        tool: plan.name,
        message: v.message,
        fix: v.fix,
        evidence:
          v.rule === PROBE_RULE_IDS.toolListChanged ? [...v.evidence, notified] : v.evidence,
      });
    }
    if (r.violations.length > 0) {
      verdicts.push({
        server,
        tool: plan.name,
        verdict: 'violation',
        reason: r.violations.map((v) => v.message).join(' '),
        evidence: [...new Set(r.violations.flatMap((v) => v.evidence))],
      });
      continue;
    }
    const inconclusive = r.inconclusive ?? (r.verified === undefined ? 'not probed' : undefined);
    if (inconclusive !== undefined) {
      verdicts.push({
        server,
        tool: plan.name,
        verdict: 'inconclusive',
        reason: inconclusive,
        evidence: r.evidence,
      });
      if (r.couldNotRun === true) {
        findings.push({
          id: PROBE_RULE_IDS.callFailed,
          severity: severityOf(PROBE_RULE_IDS.callFailed),
          server,
          tool: plan.name,
          message: `"${plan.name}" could not be verified: ${inconclusive}.`,
          fix: `Give arguments that work for "${plan.name}" in a --fixtures file.`,
          evidence: r.evidence,
        });
      }
      continue;
    }
    verdicts.push({
      server,
      tool: plan.name,
      verdict: 'verified',
      reason: r.verified ?? '',
      evidence: r.evidence,
    });
  }
  for (const event of listChanges) {
    if (
      event.tool !== undefined &&
      records.get(event.tool)?.violations.some((v) => v.rule === PROBE_RULE_IDS.toolListChanged)
    ) {
      continue;
    }
    findings.push({
      id: PROBE_RULE_IDS.toolListChanged,
      severity: severityOf(PROBE_RULE_IDS.toolListChanged),
      server,
      ...(event.tool === undefined ? {} : { tool: event.tool }),
      message: `The tool list of "${server}" changed ${event.context}.`,
      fix: 'Keep the tool list fixed while the server runs, or pin the server and review each change.',
      evidence: [...formatToolListChange(event.change), notified],
    });
  }
  return { verdicts, findings };
}
