import { createHash } from 'node:crypto';
import type { CheckRule, CheckSeverity } from '../check-types.js';
import {
  type CheckedServer,
  type CheckReport,
  type ReportedFinding,
  type SourceLocation,
  sortFindings,
  summarize,
} from './check-report.js';

/** The JSON schema SARIF 2.1.0 logs name in `$schema` (OASIS standard, errata 01). */
export const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Where `tool.driver.informationUri` points. */
export const HINTGATE_INFORMATION_URI = 'https://www.npmjs.com/package/hintgate';

/** The key of the fingerprint hintgate puts in each result's `partialFingerprints`. */
export const SARIF_FINGERPRINT_KEY = 'hintgateFinding/v1';

/** SARIF `level` of each severity. */
export const SARIF_LEVELS: Readonly<Record<CheckSeverity, 'error' | 'warning' | 'note'>> = {
  high: 'error',
  medium: 'warning',
  low: 'note',
};

/** The `problem.severity` GitHub code scanning reads from a rule's properties. */
const PROBLEM_SEVERITY: Readonly<Record<CheckSeverity, string>> = {
  high: 'error',
  medium: 'warning',
  low: 'recommendation',
};

type Json = Record<string, unknown>;

const reportingDescriptor = (rule: CheckRule): Json => ({
  id: rule.id,
  shortDescription: { text: rule.summary },
  fullDescription: { text: `${rule.summary} ${rule.help}` },
  help: { text: rule.help, markdown: rule.help },
  defaultConfiguration: { level: SARIF_LEVELS[rule.severity] },
  properties: {
    tags: ['mcp', 'tool-annotations', rule.kind],
    'problem.severity': PROBLEM_SEVERITY[rule.severity],
  },
});

/** A descriptor for a finding whose rule the report does not list, so every result has one. */
const unlistedRule = (finding: ReportedFinding): CheckRule => ({
  id: finding.id,
  kind: finding.kind,
  severity: finding.severity,
  summary: `hintgate ${finding.kind} rule ${finding.id}.`,
  help: finding.fix,
});

const physicalLocation = (location: SourceLocation): Json => ({
  artifactLocation: /^[a-z]+:\/\//i.test(location.file)
    ? { uri: location.file }
    : { uri: encodeURI(location.file), uriBaseId: '%SRCROOT%' },
  region: { startLine: location.line, startColumn: location.column },
});

const logicalLocation = (server: string, tool: string | undefined): Json =>
  tool === undefined
    ? { name: server, fullyQualifiedName: server, kind: 'module' }
    : { name: tool, fullyQualifiedName: `${server}/${tool}`, kind: 'function' };

const fingerprint = (parts: readonly string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex');

/**
 * The report as a SARIF 2.1.0 log for code scanning (GitHub's `upload-sarif`): one run
 * whose `tool.driver` lists every rule, and one result per finding with its rule, level
 * (high `error`, medium `warning`, low `note`), message (with the fix), a logical location
 * naming the server and tool, a physical location at the server's entry in the
 * configuration file when the check read one (code scanning shows a result only with a
 * physical location), and a fingerprint that depends only on rule, server and tool, so
 * the same finding matches across runs. Servers that could not be checked are
 * `toolExecutionNotifications` of the invocation, which also carries the probe's verdicts.
 */
export function formatSarif(report: CheckReport): string {
  const findings = sortFindings(report.findings);
  const rules = [...report.rules];
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  for (const finding of findings) {
    if (!ruleIndex.has(finding.id)) {
      ruleIndex.set(finding.id, rules.length);
      rules.push(unlistedRule(finding));
    }
  }
  const servers = new Map<string, CheckedServer>(
    report.servers.map((server) => [server.name, server]),
  );
  const seen = new Map<string, number>();
  const results = findings.map((finding) => {
    const key = [finding.id, finding.server, finding.tool ?? ''];
    // Two findings of one rule on one tool differ by their order, which sorting keeps stable.
    const occurrence = seen.get(key.join('\u0000')) ?? 0;
    seen.set(key.join('\u0000'), occurrence + 1);
    const where = servers.get(finding.server)?.location;
    return {
      ruleId: finding.id,
      ruleIndex: ruleIndex.get(finding.id),
      level: SARIF_LEVELS[finding.severity],
      message: { text: `${finding.message} Fix: ${finding.fix}` },
      locations: [
        {
          ...(where === undefined ? {} : { physicalLocation: physicalLocation(where) }),
          logicalLocations: [logicalLocation(finding.server, finding.tool)],
        },
      ],
      partialFingerprints: {
        [SARIF_FINGERPRINT_KEY]: fingerprint([...key, String(occurrence)]),
      },
      properties: {
        kind: finding.kind,
        severity: finding.severity,
        server: finding.server,
        ...(finding.tool === undefined ? {} : { tool: finding.tool }),
        fix: finding.fix,
        evidence: finding.evidence ?? [],
      },
    };
  });
  const failed = report.servers.filter((server) => server.status === 'failed');
  const summary = summarize(report);
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'hintgate',
            version: report.hintgateVersion,
            semanticVersion: report.hintgateVersion,
            informationUri: HINTGATE_INFORMATION_URI,
            rules: rules.map(reportingDescriptor),
          },
        },
        invocations: [
          {
            executionSuccessful: failed.length === 0,
            toolExecutionNotifications: failed.map((server) => ({
              level: 'error',
              message: { text: `Server "${server.name}" was not checked: ${server.error ?? ''}` },
              locations: [
                {
                  ...(server.location === undefined
                    ? {}
                    : { physicalLocation: physicalLocation(server.location) }),
                  logicalLocations: [logicalLocation(server.name, undefined)],
                },
              ],
            })),
            properties: {
              target: report.target,
              probe: report.probe,
              allowWrites: report.allowWrites,
              failOn: report.failOn,
              servers: report.servers.map((server) => ({
                name: server.name,
                status: server.status,
                tools: server.tools,
              })),
              verdicts: report.verdicts,
              summary,
            },
          },
        ],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
