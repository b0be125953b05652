import { plural } from '../plural.js';
import {
  type CheckReport,
  type CheckTarget,
  checkExitCode,
  meetsFailOn,
  type ReportedFinding,
  sortFindings,
  summarize,
} from './check-report.js';

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
 * marks those at or above `--fail-on`) with message, fix and evidence; then the probe's
 * verdicts, and one closing line with the counts and the exit code.
 */
export function formatTable(report: CheckReport): string {
  const summary = summarize(report);
  const parts = ['lint'];
  if (report.probe)
    parts.push(report.allowWrites ? 'probe (writes allowed)' : 'probe (reads only)');
  if (report.findings.some((finding) => finding.kind === 'pin')) parts.push('pins');
  const lines = [
    `hintgate check of ${describeTarget(report.target)}: ${plural(summary.servers, 'server')}, ${plural(summary.tools, 'tool')}; ${parts.join(', ')}`,
  ];
  const sorted = sortFindings(report.findings);
  for (const server of report.servers) {
    lines.push('');
    if (server.status === 'failed') {
      const [first = 'it could not be checked.', ...rest] = (server.error ?? '').split('\n');
      lines.push(`${server.name}: NOT CHECKED. ${first}`);
      for (const line of rest) if (line.trim() !== '') lines.push(`    ${line}`);
      continue;
    }
    const own = sorted.filter((finding) => finding.server === server.name);
    const head = `${server.name} (${plural(server.tools.length, 'tool')})`;
    lines.push(
      own.length === 0 ? `${head}: no findings` : `${head}: ${plural(own.length, 'finding')}`,
    );
    if (server.replacedDirectories !== undefined) {
      lines.push(
        `  run with the sandbox's work directory in place of ${server.replacedDirectories.join(', ')}`,
      );
    }
    lines.push(...findingLines(own, report));
  }
  // Findings about a server the report does not list (should not happen) are not lost.
  const named = new Set(report.servers.map((server) => server.name));
  const stray = sorted.filter((finding) => !named.has(finding.server));
  if (stray.length > 0) {
    lines.push('', 'Other findings:');
    lines.push(...findingLines(stray, report));
  }
  if (report.verdicts.length > 0) {
    lines.push('', 'Probe verdicts:');
    const rows = [
      ['SERVER', 'TOOL', 'VERDICT', 'REASON'],
      ...report.verdicts.map((v) => [v.server, v.tool, v.verdict, v.reason]),
    ];
    lines.push(...columns(rows, '  '));
  }
  if (report.pin !== undefined) {
    lines.push(
      '',
      report.pin.changed
        ? `Wrote the verdicts with the pins to ${report.pin.file}.`
        : `Pins and verdicts in ${report.pin.file} are up to date.`,
    );
  }
  const { high, medium, low } = summary.findings;
  const total = high + medium + low;
  const counts =
    total === 0
      ? 'No findings'
      : `${plural(total, 'finding')} (${high} high, ${medium} medium, ${low} low)`;
  const verdicts = report.probe
    ? `; verdicts: ${summary.verdicts.verified} verified, ${summary.verdicts.violation} violation, ${summary.verdicts.inconclusive} inconclusive`
    : '';
  const failing =
    report.failOn === 'none'
      ? '--fail-on none'
      : `${summary.failing} at or above --fail-on ${report.failOn}`;
  const failed =
    summary.failedServers === 0 ? '' : `; ${plural(summary.failedServers, 'server')} not checked`;
  lines.push('', `${counts}${verdicts}; ${failing}${failed}: exit ${checkExitCode(report)}.`);
  return `${lines.join('\n')}\n`;
}
