import { describe, expect, it } from 'vitest';
import type { CheckRule } from '../check-types.js';
import { type CheckReport, checkExitCode, type FailOn } from './check-report.js';
import { formatJson } from './format-json.js';
import { formatSarif, SARIF_FINGERPRINT_KEY } from './format-sarif.js';
import { formatTable } from './format-table.js';
import { PIN_RULES } from './pin-rules.js';
import { codeScanningProblems, sarifSchemaErrors } from './sarif-schema.test-helpers.js';

const RULES: CheckRule[] = [
  {
    id: 'annotations-missing',
    kind: 'lint',
    severity: 'medium',
    summary: 'A tool has no annotations.',
    help: 'Add the four hints.',
  },
  {
    id: 'probe-read-only-writes-files',
    kind: 'probe',
    severity: 'high',
    summary: 'A read-only tool wrote files.',
    help: 'Stop writing, or claim readOnlyHint: false.',
  },
  ...PIN_RULES,
];

const report = (overrides: Partial<CheckReport> = {}): CheckReport => ({
  hintgateVersion: '9.8.7',
  target: { kind: 'config', file: 'hintgate.yaml' },
  probe: true,
  allowWrites: false,
  failOn: 'high',
  rules: RULES,
  servers: [
    {
      name: 'notes',
      status: 'checked',
      tools: ['read_note', 'write_note', 'list'],
      location: { file: 'hintgate.yaml', line: 3, column: 3 },
    },
    {
      name: 'files',
      status: 'checked',
      tools: ['read'],
      location: { file: 'hintgate.yaml', line: 7, column: 3 },
    },
  ],
  findings: [
    {
      kind: 'lint',
      id: 'annotations-missing',
      severity: 'medium',
      server: 'notes',
      tool: 'list',
      message: 'Tool "list" has no annotations.',
      fix: 'Add readOnlyHint and openWorldHint.',
    },
    {
      kind: 'probe',
      id: 'probe-read-only-writes-files',
      severity: 'high',
      server: 'notes',
      tool: 'read_note',
      message: 'Tool "read_note" claims readOnlyHint: true but wrote a file.',
      fix: 'Stop writing the access log, or claim readOnlyHint: false.',
      evidence: ['created .access.log (12 bytes)'],
    },
    {
      kind: 'pin',
      id: 'pin-new',
      severity: 'low',
      server: 'files',
      tool: 'read',
      message: 'tool "read" of server "files" is not pinned.',
      fix: 'Review the tool, then pin it with `hintgate pin`.',
    },
  ],
  verdicts: [
    {
      server: 'notes',
      tool: 'read_note',
      verdict: 'violation',
      reason: 'wrote a file',
      evidence: ['created .access.log (12 bytes)'],
    },
    { server: 'files', tool: 'read', verdict: 'verified', reason: 'no change seen', evidence: [] },
  ],
  ...overrides,
});

describe('check exit code', () => {
  it.each<[FailOn, number]>([
    ['low', 1],
    ['medium', 1],
    ['high', 1],
    ['none', 0],
  ])('--fail-on %s with findings [high, medium, low] exits %i', (failOn, code) => {
    expect(checkExitCode(report({ failOn }))).toBe(code);
  });

  it('--fail-on high passes a report whose worst finding is medium; medium fails it', () => {
    const mild = report().findings.filter((finding) => finding.severity !== 'high');
    expect(checkExitCode(report({ findings: mild, failOn: 'high' }))).toBe(0);
    expect(checkExitCode(report({ findings: mild, failOn: 'medium' }))).toBe(1);
    expect(checkExitCode(report({ findings: [], failOn: 'low' }))).toBe(0);
  });

  it('exits 3 when a server could not be checked, even with --fail-on none', () => {
    const servers = [
      ...report().servers,
      { name: 'broken', status: 'failed' as const, tools: [], error: 'spawn nope ENOENT' },
    ];
    expect(checkExitCode(report({ servers, failOn: 'none' }))).toBe(3);
  });
});

describe('formatTable', () => {
  it('lists findings per server, most severe first, with fix and evidence, then verdicts', () => {
    const text = formatTable(report());
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'hintgate check of hintgate.yaml: 2 servers, 4 tools; lint, probe (reads only), pins',
    );
    const notes = lines.indexOf('notes (3 tools): 2 findings');
    expect(notes).toBeGreaterThan(0);
    expect(lines[notes + 1]).toMatch(/^! high {4}probe-read-only-writes-files {2}read_note$/);
    expect(lines[notes + 2]).toBe(
      '          Tool "read_note" claims readOnlyHint: true but wrote a file.',
    );
    expect(lines[notes + 3]).toBe(
      '          Fix: Stop writing the access log, or claim readOnlyHint: false.',
    );
    expect(lines[notes + 4]).toBe('          - created .access.log (12 bytes)');
    expect(lines[notes + 5]).toMatch(/^ {2}medium {2}annotations-missing +list$/);
    expect(text).toContain('files (1 tool): 1 finding');
    expect(text).toMatch(
      /\n {2}SERVER {2}TOOL +VERDICT +REASON\n {2}notes +read_note +violation +wrote a file\n/,
    );
    expect(lines.at(-2)).toBe(
      '3 findings (1 high, 1 medium, 1 low); verdicts: 1 verified, 1 violation, 0 inconclusive; 1 at or above --fail-on high: exit 1.',
    );
  });

  it('says so when nothing was found, and names a server that was not checked', () => {
    const servers = [
      { name: 'ok', status: 'checked' as const, tools: ['a'] },
      {
        name: 'broken',
        status: 'failed' as const,
        tools: [],
        error: 'Could not connect.\nIts stderr ended with:\nboom',
      },
    ];
    const text = formatTable(
      report({
        servers,
        findings: [],
        verdicts: [],
        probe: false,
        target: { kind: 'url', url: 'http://x/mcp' },
      }),
    );
    expect(text).toContain('hintgate check of http://x/mcp: 2 servers, 1 tool; lint\n');
    expect(text).toContain('ok (1 tool): no findings\n');
    expect(text).toContain(
      'broken: NOT CHECKED. Could not connect.\n    Its stderr ended with:\n    boom\n',
    );
    expect(text).toContain(
      'No findings; 0 at or above --fail-on high; 1 server not checked: exit 3.\n',
    );
  });
});

describe('formatTable: what it shows first', () => {
  const lows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'lint' as const,
      id: i % 2 === 0 ? 'title-missing' : 'input-schema-open',
      severity: 'low' as const,
      server: 'notes',
      tool: `t${i}`,
      message: `low ${i}`,
      fix: 'fix it',
    }));
  const many = () => report({ findings: [...report().findings, ...lows(4)] });

  it('folds findings below medium by default, and says how many and how to see them', () => {
    const text = formatTable(many());
    expect(text).not.toContain('low 0');
    expect(text).toContain(
      '  + 4 lower findings folded (low: title-missing x2, input-schema-open x2); --min-severity low shows them\n',
    );
    expect(text).toContain(
      '\n5 findings below medium folded above; --min-severity low shows every finding.\n',
    );
    expect(text).toContain('Tool "read_note" claims readOnlyHint: true but wrote a file.');
    expect(text).toContain('Tool "list" has no annotations.');
  });

  it('shows every finding with --min-severity low, and what fails even when it is low', () => {
    expect(formatTable(many(), { minSeverity: 'low' })).toContain('low 3');
    expect(formatTable(many(), { minSeverity: 'low' })).not.toContain('folded');
    expect(formatTable(report({ ...many(), failOn: 'low' }))).toContain('low 3');
    expect(formatTable(many(), { minSeverity: 'high' })).not.toContain('has no annotations');
  });

  it('--quiet shows only what fails the check and the violations', () => {
    const text = formatTable(many(), { quiet: true });
    expect(text).toContain('notes (3 tools): 6 findings');
    expect(text).not.toContain('files (1 tool)');
    expect(text).not.toContain('has no annotations');
    expect(text).toMatch(/ {2}notes +read_note +violation +wrote a file\n/);
    expect(text).not.toContain('no change seen');
  });

  it('lists violations first, and shares one row among three or more tools with one reason', () => {
    const not = (tool: string) => ({
      server: 'notes',
      tool,
      verdict: 'inconclusive' as const,
      reason: 'not called: it claims to write',
      evidence: [],
    });
    const text = formatTable(
      report({ verdicts: [not('a'), not('b'), ...report().verdicts, not('c')] }),
    );
    const rows = text.slice(text.indexOf('Probe verdicts:')).split('\n').slice(2, 5);
    expect(rows[0]).toMatch(/^ {2}notes +read_note +violation +wrote a file$/);
    expect(rows[1]).toMatch(
      /^ {2}notes +\(3 tools\) +inconclusive +not called: it claims to write: a, b, c$/,
    );
    expect(rows[2]).toMatch(/^ {2}files +read +verified +no change seen$/);
  });

  it('says how each server was isolated', () => {
    const [notes, files] = report().servers;
    const servers = [
      {
        ...notes,
        sandbox: {
          isolation: 'bubblewrap' as const,
          caches: [{ name: 'npm', path: '/home/me/.npm', writable: true }],
          copiedFrom: '/n/node_modules/notes',
        },
      },
      {
        ...files,
        sandbox: {
          isolation: 'none' as const,
          reason: 'bwrap is not installed',
          caches: [],
          notCopied: 'it is not a Node script of an installed package (uvx)',
        },
      },
    ] as CheckReport['servers'];
    const text = formatTable(report({ servers }));
    expect(text).toContain(
      '  sandbox: bubblewrap, the host read-only but for the sandbox and writable caches; package caches: npm /home/me/.npm; its code ran from a copy of /n/node_modules/notes\n',
    );
    expect(text).toContain(
      '  sandbox: no OS isolation (bwrap is not installed): it ran as you; writes outside the sandbox are not seen; its code ran where it is installed (it is not a Node script of an installed package (uvx))\n',
    );
  });
});

describe('formatJson', () => {
  it('prints the versioned shape: summary, sorted findings with failing flags, verdicts', () => {
    const json = JSON.parse(formatJson(report({ failOn: 'medium' })));
    expect(json).toMatchObject({
      version: 1,
      hintgate: '9.8.7',
      target: { kind: 'config', file: 'hintgate.yaml' },
      probe: true,
      allowWrites: false,
      failOn: 'medium',
      exitCode: 1,
      summary: {
        servers: 2,
        failedServers: 0,
        tools: 4,
        findings: { high: 1, medium: 1, low: 1 },
        failing: 2,
        verdicts: { verified: 1, violation: 1, inconclusive: 0 },
      },
      pin: null,
    });
    expect(json.findings.map((f: { id: string; failing: boolean }) => [f.id, f.failing])).toEqual([
      ['probe-read-only-writes-files', true],
      ['annotations-missing', true],
      ['pin-new', false],
    ]);
    expect(json.findings[2]).toEqual({
      kind: 'pin',
      id: 'pin-new',
      severity: 'low',
      server: 'files',
      tool: 'read',
      message: 'tool "read" of server "files" is not pinned.',
      fix: 'Review the tool, then pin it with `hintgate pin`.',
      evidence: [],
      failing: false,
    });
    expect(json.servers[0]).toEqual({
      name: 'notes',
      status: 'checked',
      tools: ['read_note', 'write_note', 'list'],
      location: { file: 'hintgate.yaml', line: 3, column: 3 },
    });
  });
});

describe('formatSarif', () => {
  it('is checked by a schema validator that rejects what is not SARIF 2.1.0', () => {
    const log = JSON.parse(formatSarif(report()));
    expect(sarifSchemaErrors({ ...log, version: '2.0.0' })).not.toEqual([]);
    const [run] = log.runs;
    const broken = { ...run, results: [{ ...run.results[0], level: 'fatal' }] };
    expect(sarifSchemaErrors({ ...log, runs: [broken] })).not.toEqual([]);
  });

  it('is valid SARIF 2.1.0 that GitHub code scanning can show', () => {
    const log = JSON.parse(formatSarif(report()));
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(codeScanningProblems(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    expect(run.tool.driver).toMatchObject({ name: 'hintgate', version: '9.8.7' });
    expect(run.tool.driver.informationUri).toMatch(/^https:\/\//);
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(
      RULES.map((rule) => rule.id),
    );
    expect(run.tool.driver.rules[1]).toMatchObject({
      id: 'probe-read-only-writes-files',
      shortDescription: { text: 'A read-only tool wrote files.' },
      help: { text: 'Stop writing, or claim readOnlyHint: false.' },
      defaultConfiguration: { level: 'error' },
    });
    expect(
      run.results.map((r: { ruleId: string; ruleIndex: number; level: string }) => [
        r.ruleId,
        r.ruleIndex,
        r.level,
      ]),
    ).toEqual([
      ['probe-read-only-writes-files', 1, 'error'],
      ['annotations-missing', 0, 'warning'],
      ['pin-new', RULES.findIndex((rule) => rule.id === 'pin-new'), 'note'],
    ]);
    expect(run.results[0].locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'hintgate.yaml', uriBaseId: '%SRCROOT%' },
          region: { startLine: 3, startColumn: 3 },
        },
        logicalLocations: [
          { name: 'read_note', fullyQualifiedName: 'notes/read_note', kind: 'function' },
        ],
      },
    ]);
    expect(run.results[0].message.text).toBe(
      'Tool "read_note" claims readOnlyHint: true but wrote a file. Fix: Stop writing the access log, or claim readOnlyHint: false.',
    );
    expect(run.invocations[0].executionSuccessful).toBe(true);
    expect(run.invocations[0].properties.verdicts).toEqual(report().verdicts);
  });

  it('keeps fingerprints across runs whose messages differ, and distinguishes tools', () => {
    const first = JSON.parse(formatSarif(report())).runs[0].results;
    const reworded = report().findings.map((finding) => ({
      ...finding,
      message: `${finding.message} (again)`,
    }));
    const second = JSON.parse(formatSarif(report({ findings: reworded }))).runs[0].results;
    const prints = (results: { partialFingerprints: Record<string, string> }[]) =>
      results.map((result) => result.partialFingerprints[SARIF_FINGERPRINT_KEY]);
    expect(prints(second)).toEqual(prints(first));
    expect(new Set(prints(first)).size).toBe(3);
  });

  it('reports a server that was not checked as a failed invocation, and adds unlisted rules', () => {
    const servers = [
      ...report().servers,
      {
        name: 'broken',
        status: 'failed' as const,
        tools: [],
        error: 'spawn nope ENOENT',
        location: { file: 'hintgate.yaml', line: 11, column: 3 },
      },
    ];
    const findings = [
      ...report().findings,
      {
        kind: 'lint' as const,
        id: 'some-new-rule',
        severity: 'low' as const,
        server: 'files',
        message: 'Server-wide.',
        fix: 'Do it.',
      },
    ];
    const log = JSON.parse(formatSarif(report({ servers, findings })));
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(codeScanningProblems(log)).toEqual([]);
    const [run] = log.runs;
    expect(run.invocations[0].executionSuccessful).toBe(false);
    expect(run.invocations[0].toolExecutionNotifications[0]).toMatchObject({
      level: 'error',
      message: { text: 'Server "broken" was not checked: spawn nope ENOENT' },
    });
    const added = run.tool.driver.rules.at(-1);
    expect(added.id).toBe('some-new-rule');
    const result = run.results.find((r: { ruleId: string }) => r.ruleId === 'some-new-rule');
    expect(result.ruleIndex).toBe(run.tool.driver.rules.length - 1);
    expect(result.locations[0].logicalLocations).toEqual([
      { name: 'files', fullyQualifiedName: 'files', kind: 'module' },
    ]);
  });

  it('has no physical location without a configuration file (not shown by code scanning)', () => {
    const servers = [{ name: 'cli', status: 'checked' as const, tools: ['list'] }];
    const findings = report().findings.map((finding) => ({ ...finding, server: 'cli' }));
    const log = JSON.parse(
      formatSarif(
        report({ servers, findings, target: { kind: 'command', command: 'node', args: ['s.js'] } }),
      ),
    );
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].results[0].locations[0].physicalLocation).toBeUndefined();
  });
});
