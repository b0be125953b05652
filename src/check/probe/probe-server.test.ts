// The probe against real fixture server processes (src/check/fixtures/) in real sandboxes.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureTarget } from './probe.test-helpers.js';
import { probeServer } from './probe-server.js';
import type { ProbeReport } from './probe-types.js';

let host: string;
beforeEach(async () => {
  host = await mkdtemp(join(tmpdir(), 'hintgate-probe-test-'));
});
afterEach(async () => {
  await rm(host, { recursive: true, force: true });
});

const verdictOf = (report: ProbeReport, tool: string) =>
  report.verdicts.find((v) => v.tool === tool);

const calledTools = async (log: string): Promise<string[]> =>
  existsSync(log)
    ? (await readFile(log, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { tool: string }).tool)
    : [];

describe('probeServer on lying servers', () => {
  it('catches a read tool that appends to a log file, naming the file', async () => {
    const report = await probeServer({ server: 'logs', target: fixtureTarget('log-appender') });
    expect(verdictOf(report, 'search_notes')?.verdict).toBe('violation');
    const finding = report.findings.find((f) => f.tool === 'search_notes');
    expect(finding).toMatchObject({
      id: 'probe-read-only-writes-files',
      severity: 'high',
      server: 'logs',
    });
    expect(finding?.evidence).toContainEqual(
      expect.stringMatching(/^created work\/access\.log \(file, \d+ bytes\)$/),
    );
  });

  it('catches a read tool that bumps a counter another read tool shows, naming that tool', async () => {
    const report = await probeServer({ server: 'counter', target: fixtureTarget('counter') });
    expect(verdictOf(report, 'get_status')?.verdict).toBe('violation');
    expect(verdictOf(report, 'get_count')?.verdict).toBe('verified');
    expect(report.fingerprintTools).toEqual(['get_count']);
    const finding = report.findings.find((f) => f.tool === 'get_status');
    expect(finding?.id).toBe('probe-read-only-changes-state');
    expect(finding?.evidence).toContainEqual(
      expect.stringMatching(/^get_count .*returned "count: \d+" before and "count: \d+" after$/),
    );
    expect(report.findings).toHaveLength(1);
  });

  it('catches read tools whose answers count their calls, with the answers as evidence; a clock and a random number are no violation', async () => {
    const report = await probeServer({ server: 'acc', target: fixtureTarget('accumulator') });
    expect(Object.fromEntries(report.verdicts.map((v) => [v.tool, v.verdict]))).toEqual({
      next_ticket: 'violation',
      recall: 'violation',
      clock: 'verified',
      pick: 'verified',
    });
    const ticket = report.findings.find((f) => f.tool === 'next_ticket');
    expect(ticket).toMatchObject({ id: 'probe-read-only-changes-state', severity: 'high' });
    expect(ticket?.message).toContain(
      'its answer to the same call changed in a way that shows accumulated state (the number 1 in "Your ticket is number # in the queue." 1 -> 2)',
    );
    expect(ticket?.evidence).toEqual([
      expect.stringMatching(/^called 4 times with \{"queue":"[^"]*"\}, the last after a pause of/),
      'first answer: Your ticket is number 1 in the queue.',
      'second answer: Your ticket is number 2 in the queue.',
      'the number 1 in "Your ticket is number # in the queue." went 1 -> 2 -> 3 -> 4: one step per call, also across the pause, so it counts calls, not time',
    ]);
    expect(report.findings.find((f) => f.tool === 'recall')?.message).toContain(
      '(seen.length 1 -> 2)',
    );
    expect(report.findings.map((f) => f.tool).sort()).toEqual(['next_ticket', 'recall']);
  });

  it('catches a read tool that writes only on its second call', async () => {
    const report = await probeServer({
      server: 'second',
      target: fixtureTarget('second-call-writer'),
    });
    expect(verdictOf(report, 'lookup')?.verdict).toBe('violation');
    const finding = report.findings.find((f) => f.tool === 'lookup');
    expect(finding?.id).toBe('probe-read-only-writes-files');
    expect(finding?.evidence).toContainEqual(
      expect.stringMatching(/^created work\/cache\/lookup\.json /),
    );
  });

  it('reports a tool list that changes after three calls (a rug pull), with what changed', async () => {
    const report = await probeServer({ server: 'rug', target: fixtureTarget('rug-pull') });
    const finding = report.findings.find((f) => f.id === 'probe-tool-list-changed');
    expect(finding).toMatchObject({ severity: 'high', server: 'rug', tool: 'lookup' });
    expect(finding?.evidence).toEqual(
      expect.arrayContaining(['tool added: send_data', 'tool redefined: lookup']),
    );
    expect(verdictOf(report, 'lookup')?.verdict).toBe('violation');
    expect(verdictOf(report, 'search')?.verdict).toBe('verified');
    // The verdicts are about the tools as first listed.
    expect(report.verdicts.map((v) => v.tool)).toEqual(['search', 'lookup']);
  });

  it('catches an "idempotent" tool that appends, with --allow-writes', async () => {
    const report = await probeServer({
      server: 'appender',
      target: fixtureTarget('fake-idempotent'),
      allowWrites: true,
    });
    expect(verdictOf(report, 'save_entry')?.verdict).toBe('violation');
    const finding = report.findings.find((f) => f.tool === 'save_entry');
    expect(finding?.id).toBe('probe-not-idempotent');
    // One file changed by the second call; the third call that confirms the state change
    // changes it again, which is said as such and not counted as another file.
    expect(finding?.message).toContain('changed files (0 created, 1 modified, 0 deleted) again');
    expect(finding?.evidence?.slice(0, 3)).toEqual([
      'called again with {"text":"probe"}',
      expect.stringMatching(
        /^modified work\/entries\.txt \(size \d+ -> \d+ bytes, content changed\)$/,
      ),
      expect.stringMatching(
        /^called once more: modified work\/entries\.txt \(size \d+ -> \d+ bytes, content changed\)$/,
      ),
    ]);
    expect(finding?.evidence).toContainEqual(
      expect.stringMatching(/^count_entries .*returned "1" before and "2" after$/),
    );
    expect(verdictOf(report, 'count_entries')?.verdict).toBe('verified');
  });
});

describe('probeServer on an honest server', () => {
  it('verifies every read-only tool and never calls a writing tool without allowWrites', async () => {
    const log = join(host, 'calls.jsonl');
    const report = await probeServer({
      server: 'honest',
      target: fixtureTarget('honest-server', { PROBE_FIXTURE_CALL_LOG: log }),
      // The fixture logs its calls to a file of the test, outside the sandbox.
      isolation: 'none',
    });
    expect(report.findings).toEqual([]);
    expect(Object.fromEntries(report.verdicts.map((v) => [v.tool, v.verdict]))).toEqual({
      read_note: 'verified',
      list_notes: 'verified',
      get_settings: 'verified',
      process_info: 'verified',
      set_setting: 'inconclusive',
      delete_note: 'inconclusive',
    });
    expect(verdictOf(report, 'delete_note')?.reason).toMatch(/^not called: .*--allow-writes/);
    const called = await calledTools(log);
    expect(called).toContain('read_note');
    expect(called).not.toContain('set_setting');
    expect(called).not.toContain('delete_note');
    expect(report.calls).toBe(called.length);
  });

  it('with allowWrites verifies the idempotent setter and the delete, in the sandbox only', async () => {
    const log = join(host, 'calls.jsonl');
    const report = await probeServer({
      server: 'honest',
      target: fixtureTarget('honest-server', { PROBE_FIXTURE_CALL_LOG: log }),
      // The fixture logs its calls to a file of the test, outside the sandbox.
      isolation: 'none',
      allowWrites: true,
    });
    expect(report.findings).toEqual([]);
    expect(verdictOf(report, 'set_setting')?.verdict).toBe('verified');
    expect(verdictOf(report, 'delete_note')?.verdict).toBe('verified');
    expect(await calledTools(log)).toEqual(expect.arrayContaining(['set_setting', 'delete_note']));
    // delete_note got the sandbox's seeded file, and the sandbox is gone afterwards.
    expect(existsSync(report.sandbox.root)).toBe(false);
  });

  it('runs the server with a scrubbed environment in the sandbox work directory', async () => {
    const log = join(host, 'calls.jsonl');
    process.env.HINTGATE_PROBE_TEST_SECRET = 'do-not-pass';
    let report: ProbeReport;
    try {
      report = await probeServer({
        server: 'honest',
        target: fixtureTarget('honest-server', {
          GIVEN_BY_CONFIG: 'yes',
          PROBE_FIXTURE_CALL_LOG: log,
        }),
        // The fixture logs its calls to a file of the test, outside the sandbox.
        isolation: 'none',
        // The host's package caches are handed in by default (tested on their own).
        hostCaches: false,
      });
    } finally {
      delete process.env.HINTGATE_PROBE_TEST_SECRET;
    }
    const seen = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool: string; output: string })
      .find((line) => line.tool === 'process_info');
    const { cwd, env } = JSON.parse(seen?.output ?? '{}') as { cwd: string; env: string[] };
    expect(cwd).toBe(report.sandbox.work);
    expect(env).toContain('GIVEN_BY_CONFIG');
    expect(env).not.toContain('HINTGATE_PROBE_TEST_SECRET');
    // Passed by the MCP SDK's stdio transport on POSIX, as documented.
    const sdk = ['LOGNAME', 'SHELL', 'TERM', 'USER'];
    expect(
      env.filter((key) => !report.sandbox.environment.includes(key) && !sdk.includes(key)),
    ).toEqual([]);
    expect(report.sandbox.environment).toEqual([
      'GIVEN_BY_CONFIG',
      'HOME',
      'PATH',
      'PROBE_FIXTURE_CALL_LOG',
      'TEMP',
      'TMP',
      'TMPDIR',
      'TSX_DISABLE_CACHE',
      'USERPROFILE',
      'XDG_CACHE_HOME',
      'XDG_CONFIG_HOME',
      'XDG_DATA_HOME',
      'XDG_STATE_HOME',
    ]);
  });

  it('takes arguments from fixtures instead of synthesizing them', async () => {
    const log = join(host, 'calls.jsonl');
    const report = await probeServer({
      server: 'honest',
      target: fixtureTarget('honest-server', { PROBE_FIXTURE_CALL_LOG: log }),
      // The fixture logs its calls to a file of the test, outside the sandbox.
      isolation: 'none',
      fixtures: { read_note: [{ path: 'docs/readme.md' }, { path: 'missing.txt' }] },
    });
    const lines = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.tool === 'read_note').map((l) => l.args.path)).toEqual([
      'docs/readme.md',
      'docs/readme.md',
      'missing.txt',
    ]);
    const verdict = verdictOf(report, 'read_note');
    expect(verdict?.verdict).toBe('verified');
    expect(verdict?.evidence).toContainEqual(expect.stringMatching(/missing\.txt.*failed/));
  });
});
