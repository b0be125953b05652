import type { RateLimit } from '../../tool/index.js';
import { CHECK_SEVERITIES, type CheckSeverity, type ToolVerdict } from '../check-types.js';
import { plural } from '../plural.js';
import {
  type CheckedServerSandbox,
  type CheckReport,
  type CheckTarget,
  checkExitCode,
  meetsFailOn,
  type ReportedFinding,
  sortFindings,
  summarize,
} from './check-report.js';

/** Options of {@link formatTable}: what the table shows. */
export interface FormatTableOptions {
  /**
   * Findings below this severity are folded: counted per server, not shown. Findings at or
   * above `--fail-on` are always shown unless this is set. Default: `medium`, or the
   * `--fail-on` severity when that is lower.
   */
  readonly minSeverity?: CheckSeverity;
  /**
   * Only what fails the check: findings at or above `--fail-on` (`high` for `none`), servers
   * that were not checked, violations; no server without such findings, no verdicts table
   * otherwise. Default false.
   */
  readonly quiet?: boolean;
}

const rank = (severity: CheckSeverity): number => CHECK_SEVERITIES.indexOf(severity);

/** The lowest severity the table shows in full. */
function threshold(report: CheckReport, options: FormatTableOptions): CheckSeverity {
  if (options.minSeverity !== undefined) return options.minSeverity;
  const failOn: CheckSeverity = report.failOn === 'none' ? 'high' : report.failOn;
  if (options.quiet === true) return failOn;
  return rank(failOn) < rank('medium') ? failOn : 'medium';
}

/** `low: title-missing x5, input-schema-open x3`: what was folded, by severity and rule. */
function foldedText(folded: readonly ReportedFinding[]): string {
  const parts: string[] = [];
  for (const severity of [...CHECK_SEVERITIES].reverse()) {
    const counts = new Map<string, number>();
    for (const finding of folded.filter((f) => f.severity === severity)) {
      counts.set(finding.id, (counts.get(finding.id) ?? 0) + 1);
    }
    if (counts.size === 0) continue;
    const rules = [...counts].map(([id, n]) => (n === 1 ? id : `${id} x${n}`)).join(', ');
    parts.push(`${severity}: ${rules}`);
  }
  return parts.join('; ');
}

/** How a server was isolated, in one line. */
function sandboxLine(sandbox: CheckedServerSandbox): string {
  const caches = sandbox.caches
    .map((cache) => `${cache.name} ${cache.path}${cache.writable ? '' : ' (read-only)'}`)
    .join(', ');
  const handed = caches === '' ? '' : `; package caches: ${caches}`;
  const code =
    sandbox.copiedFrom === undefined
      ? `; its code ran where it is installed (${sandbox.notCopied ?? 'not copied'})`
      : `; its code ran from a copy of ${sandbox.copiedFrom}`;
  return sandbox.isolation === 'bubblewrap'
    ? `  sandbox: bubblewrap, the host read-only but for the sandbox and writable caches${handed}${code}`
    : `  sandbox: no OS isolation (${sandbox.reason ?? 'none'}): it ran as you; writes outside the sandbox are not seen${handed}${code}`;
}

/** `2 calls per 60000 ms (no wait)`: a rate limit in words. */
export const rateLimitText = ({ max, windowMs, maxWaitMs }: RateLimit): string =>
  `${plural(max, 'call')} per ${windowMs} ms${maxWaitMs === undefined ? '' : maxWaitMs === 0 ? ' (no wait)' : ` (wait up to ${maxWaitMs} ms)`}`;

const VERDICT_ORDER: Record<ToolVerdict['verdict'], number> = {
  violation: 0,
  inconclusive: 1,
  verified: 2,
};

/**
 * Verdict rows, violations first; three or more inconclusive tools of a server with one
 * reason (typically "not called: it claims to write") share a row.
 */
function verdictRows(verdicts: readonly ToolVerdict[]): string[][] {
  const groups = new Map<string, ToolVerdict[]>();
  for (const verdict of verdicts) {
    const key = `${verdict.server}\u0000${verdict.verdict}\u0000${verdict.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), verdict]);
  }
  const rows: { order: number; row: string[] }[] = [];
  for (const group of groups.values()) {
    const [first] = group;
    if (first === undefined) continue;
    const order = VERDICT_ORDER[first.verdict];
    if (group.length >= 3 && first.verdict === 'inconclusive') {
      rows.push({
        order,
        row: [
          first.server,
          `(${group.length} tools)`,
          first.verdict,
          `${first.reason}: ${group.map((v) => v.tool).join(', ')}`,
        ],
      });
    } else {
      for (const v of group) rows.push({ order, row: [v.server, v.tool, v.verdict, v.reason] });
    }
  }
  return rows.sort((a, b) => a.order - b.order).map(({ row }) => row);
}

const describeTarget = (target: CheckTarget): string => {
  switch (target.kind) {
    case 'config':
      return target.file;
    case 'command':
      return [target.command, ...target.args].join(' ');
    case 'url':
      return target.url;
  }
};

/** Lays rows out in columns separated by two spaces; the last column is not padded. */
const columns = (rows: readonly (readonly string[])[], indent: string): string[] => {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
        .join('  ')
        .trimEnd(),
  );
};

const findingLines = (findings: readonly ReportedFinding[], report: CheckReport): string[] => {
  const idWidth = Math.max(...findings.map((finding) => finding.id.length));
  const lines: string[] = [];
  for (const finding of findings) {
    const mark = meetsFailOn(finding.severity, report.failOn) ? '!' : ' ';
    lines.push(
      `${mark} ${finding.severity.padEnd(6)}  ${finding.id.padEnd(idWidth)}  ${finding.tool ?? '(server)'}`,
    );
    const body = ' '.repeat(10);
    lines.push(`${body}${finding.message}`);
    lines.push(`${body}Fix: ${finding.fix}`);
    for (const line of finding.evidence ?? []) lines.push(`${body}- ${line}`);
  }
  return lines;
};

/**
 * The report as text for a terminal: per server, its findings (most severe first; `!`
 * marks those at or above `--fail-on`) with message, fix and evidence, findings below the
 * shown severity folded into a count (see {@link FormatTableOptions}), and how the server
 * was isolated; then the probe's verdicts (violations first), and one closing line with
 * the counts and the exit code.
 */
export function formatTable(report: CheckReport, options: FormatTableOptions = {}): string {
  const summary = summarize(report);
  const quiet = options.quiet === true;
  const least = threshold(report, options);
  const shown = (finding: ReportedFinding): boolean => rank(finding.severity) >= rank(least);
  const parts = ['lint'];
  if (report.probe)
    parts.push(report.allowWrites ? 'probe (writes allowed)' : 'probe (reads only)');
  if (report.findings.some((finding) => finding.kind === 'pin')) parts.push('pins');
  const lines = [
    `hintgate check of ${describeTarget(report.target)}: ${plural(summary.servers, 'server')}, ${plural(summary.tools, 'tool')}; ${parts.join(', ')}`,
  ];
  const sorted = sortFindings(report.findings);
  let foldedTotal = 0;
  for (const server of report.servers) {
    if (server.status === 'failed') {
      lines.push('');
      const [first = 'it could not be checked.', ...rest] = (server.error ?? '').split('\n');
      lines.push(`${server.name}: NOT CHECKED. ${first}`);
      for (const line of rest) if (line.trim() !== '') lines.push(`    ${line}`);
      continue;
    }
    const own = sorted.filter((finding) => finding.server === server.name);
    const visible = own.filter(shown);
    const folded = own.filter((finding) => !shown(finding));
    foldedTotal += folded.length;
    if (quiet && visible.length === 0) continue;
    lines.push('');
    const head = `${server.name} (${plural(server.tools.length, 'tool')})`;
    lines.push(
      own.length === 0 ? `${head}: no findings` : `${head}: ${plural(own.length, 'finding')}`,
    );
    if (!quiet && server.replacedDirectories !== undefined) {
      lines.push(
        `  run with the sandbox's work directory in place of ${server.replacedDirectories.join(', ')}`,
      );
    }
    if (!quiet && server.sandbox !== undefined) lines.push(sandboxLine(server.sandbox));
    if (!quiet && server.declaredLimits !== undefined) {
      lines.push(
        `  declared rate limits (annotations.custom.rateLimit): ${server.declaredLimits.map(({ tool, rateLimit }) => `${tool} ${rateLimitText(rateLimit)}`).join(', ')}`,
      );
    }
    lines.push(...findingLines(visible, report));
    if (folded.length > 0) {
      lines.push(
        `  + ${plural(folded.length, 'lower finding')} folded (${foldedText(folded)}); --min-severity ${folded.some((f) => f.severity === 'low') ? 'low' : 'medium'} shows them`,
      );
    }
  }
  // Findings about a server the report does not list (should not happen) are not lost.
  const named = new Set(report.servers.map((server) => server.name));
  const stray = sorted.filter((finding) => !named.has(finding.server));
  if (stray.length > 0) {
    lines.push('', 'Other findings:');
    lines.push(...findingLines(stray, report));
  }
  const verdicts = quiet
    ? report.verdicts.filter((verdict) => verdict.verdict === 'violation')
    : report.verdicts;
  if (verdicts.length > 0) {
    lines.push('', 'Probe verdicts:');
    lines.push(
      ...columns([['SERVER', 'TOOL', 'VERDICT', 'REASON'], ...verdictRows(verdicts)], '  '),
    );
  }
  if (report.pin !== undefined) {
    const kept = report.pin.kept ?? [];
    lines.push(
      '',
      `${
        report.pin.changed
          ? `Wrote the verdicts with the pins to ${report.pin.file}`
          : `Pins and verdicts in ${report.pin.file} are up to date`
      }${kept.length === 0 ? '' : ` for the servers that were checked; the pins of ${kept.join(', ')} (not checked) were left as they were`}.`,
    );
  }
  const { high, medium, low } = summary.findings;
  const total = high + medium + low;
  const counts =
    total === 0
      ? 'No findings'
      : `${plural(total, 'finding')} (${high} high, ${medium} medium, ${low} low)`;
  const verdictCounts = report.probe
    ? `; verdicts: ${summary.verdicts.verified} verified, ${summary.verdicts.violation} violation, ${summary.verdicts.inconclusive} inconclusive`
    : '';
  const failing =
    report.failOn === 'none'
      ? '--fail-on none'
      : `${summary.failing} at or above --fail-on ${report.failOn}`;
  const failed =
    summary.failedServers === 0 ? '' : `; ${plural(summary.failedServers, 'server')} not checked`;
  if (foldedTotal > 0) {
    lines.push(
      '',
      `${plural(foldedTotal, 'finding')} below ${least} folded above; --min-severity low shows every finding.`,
    );
  }
  lines.push('', `${counts}${verdictCounts}; ${failing}${failed}: exit ${checkExitCode(report)}.`);
  return `${lines.join('\n')}\n`;
}
