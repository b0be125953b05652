// The probe against the reference servers, run as real processes: their read-only tools must
// come out verified or honestly inconclusive, never as a violation.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectBubblewrap } from './bubblewrap.js';
import {
  everythingTarget,
  filesystemTarget,
  memoryTarget,
  modelContextProtocolPackage,
  sequentialThinkingTarget,
} from './probe.test-helpers.js';
import { probeServer } from './probe-server.js';

let host: string;
beforeEach(async () => {
  host = await mkdtemp(join(tmpdir(), 'hintgate-probe-host-'));
  await writeFile(join(host, 'host-secret.txt'), 'not for the probe\n');
});
afterEach(async () => {
  await rm(host, { recursive: true, force: true });
});

describe('probeServer on @modelcontextprotocol/server-filesystem', () => {
  it('substitutes the sandbox for the host root and verifies the read-only tools', async () => {
    const report = await probeServer({ server: 'files', target: filesystemTarget(host) });
    expect(report.sandbox.substitutedArguments).toEqual([{ index: 1, from: host }]);
    expect(report.findings.filter((f) => f.severity === 'high')).toEqual([]);
    const byTool = Object.fromEntries(report.verdicts.map((v) => [v.tool, v]));
    for (const tool of [
      'read_text_file',
      'read_multiple_files',
      'list_directory',
      'list_directory_with_sizes',
      'directory_tree',
      'search_files',
      'get_file_info',
      'list_allowed_directories',
    ]) {
      expect(byTool[tool]?.verdict, `${tool}: ${byTool[tool]?.reason}`).toBe('verified');
    }
    // Reading went to the sandbox's seeded files, never to the host directory.
    expect(byTool.read_text_file?.evidence.join('\n')).toContain(
      `${report.sandbox.work}/notes.txt`,
    );
    expect(byTool.list_allowed_directories?.verdict).toBe('verified');
    for (const v of report.verdicts) expect(v.verdict).not.toBe('violation');
    expect(byTool.write_file?.reason).toMatch(/^not called/);
    expect(await readdir(host)).toEqual(['host-secret.txt']);
  });
});

describe('probeServer on @modelcontextprotocol/server-everything', () => {
  it('gives its read-only tools no false violation (nondeterministic tools stay out of the fingerprint)', async () => {
    const report = await probeServer({
      server: 'everything',
      target: everythingTarget(),
      // Its default is ten seconds per call. Two seconds still spans ticks of the clock that
      // get-resource-reference shows, which must not pass for a change of state.
      fixtures: { 'trigger-long-running-operation': [{ duration: 2, steps: 1 }] },
    });
    const violations = report.verdicts.filter((v) => v.verdict === 'violation');
    expect(violations).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'high')).toEqual([]);
    const readOnly = (report.tools as { name: string; annotations?: { readOnlyHint?: boolean } }[])
      .filter((tool) => tool.annotations?.readOnlyHint === true)
      .map((tool) => tool.name);
    expect(readOnly.length).toBeGreaterThan(5);
    const verdicts = readOnly.map((tool) => report.verdicts.find((v) => v.tool === tool));
    for (const verdict of verdicts) {
      expect(['verified', 'inconclusive'], `${verdict?.tool}: ${verdict?.reason}`).toContain(
        verdict?.verdict,
      );
      // get-resource-reference shows a clock (seconds): the tool running when it ticks is
      // inconclusive, and the clock is left out of the fingerprint from then on.
      if (verdict?.verdict === 'inconclusive') expect(verdict.reason).toMatch(/time-dependent/);
    }
    expect(verdicts.filter((v) => v?.verdict === 'verified').length).toBeGreaterThanOrEqual(
      readOnly.length - 1,
    );
    expect(report.fingerprintTools).toEqual(expect.arrayContaining(['get-env', 'get-tiny-image']));
    expect(report.verdicts.find((v) => v.tool === 'toggle-simulated-logging')?.reason).toMatch(
      /^not called/,
    );
    expect(existsSync(report.sandbox.root)).toBe(false);
  });
});

describe('probeServer on @modelcontextprotocol/server-sequential-thinking', () => {
  it('reports sequentialthinking, which claims readOnlyHint: true, for the thought history its answers count', async () => {
    const report = await probeServer({ server: 'thinking', target: sequentialThinkingTarget() });
    const verdict = report.verdicts.find((v) => v.tool === 'sequentialthinking');
    expect(verdict?.verdict).toBe('violation');
    const finding = report.findings.find((f) => f.tool === 'sequentialthinking');
    expect(finding).toMatchObject({ id: 'probe-read-only-changes-state', severity: 'high' });
    expect(finding?.message).toContain('(thoughtHistoryLength 1 -> 2)');
    expect(finding?.evidence).toContainEqual(
      expect.stringMatching(/^first answer: \{.*"thoughtHistoryLength":1\}$/),
    );
    expect(finding?.evidence).toContainEqual(
      expect.stringMatching(/^second answer: \{.*"thoughtHistoryLength":2\}$/),
    );
    expect(finding?.evidence).toContain(
      'thoughtHistoryLength went 1 -> 2 -> 3 -> 4: one step per call, also across the pause, so it counts calls, not time',
    );
  });
});

describe('probeServer on @modelcontextprotocol/server-memory with allowWrites', () => {
  it('leaves its install folder untouched and reports the writes it made in the sandbox', async () => {
    const installed = modelContextProtocolPackage('server-memory');
    const before = await readdir(join(installed, 'dist'));
    const report = await probeServer({
      server: 'memory',
      target: memoryTarget(),
      allowWrites: true,
    });
    // server-memory keeps memory.jsonl beside its own dist/index.js: here, beside the copy.
    expect(await readdir(join(installed, 'dist'))).toEqual(before);
    expect(existsSync(join(installed, 'dist', 'memory.jsonl'))).toBe(false);
    const bubblewrap = await detectBubblewrap();
    expect(report.sandbox.isolation).toMatchObject({
      kind: bubblewrap.available ? 'bubblewrap' : 'none',
      serverCopy: { from: installed, to: join(report.sandbox.root, 'install', 'server-memory') },
    });
    const evidence = report.verdicts.flatMap((verdict) => verdict.evidence);
    expect(evidence).toContainEqual(
      expect.stringMatching(/^first call: created install\/server-memory\/dist\/memory\.jsonl /),
    );
    expect(report.verdicts.filter((v) => v.verdict === 'violation')).toEqual([]);
  });
});
