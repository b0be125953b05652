import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { CheckRule } from '../check/check-types.js';
import { PROBE_RULES } from '../check/probe/index.js';
import { CHECK_EXIT_CODES, PIN_RULES } from '../check/report/index.js';
import { CHECK_USAGE } from './run-check.js';

const docs = await readFile(new URL('../../docs/check.md', import.meta.url), 'utf8');
const section = (title: string): string =>
  docs.split(new RegExp(`^## ${title}$`, 'm'))[1]?.split(/^## /m)[0] ?? '';
const ruleRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => /^\| `[a-z-]+` \|/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    )
    .filter((cells) => cells.length === 4);
const expected = (rules: readonly CheckRule[]): string[][] =>
  rules.map((rule) => [`\`${rule.id}\``, rule.severity, rule.summary, rule.help]);

describe('docs/check.md', () => {
  it('lists every probe rule and every pin rule with severity, summary and help', () => {
    expect(ruleRows(section('Probe'))).toEqual(expected(PROBE_RULES));
    expect(ruleRows(section('Pin findings'))).toEqual(expected(PIN_RULES));
  });

  it('documents every option of hintgate check --help, and every exit code', () => {
    const options = new Set(CHECK_USAGE.match(/--[a-z-]+/g));
    expect(options.size).toBeGreaterThan(10);
    const usage = section('Usage');
    for (const option of options) {
      if (option !== '--help') expect(usage).toContain(`\`${option}`);
    }
    const codes = section('Exit codes');
    for (const code of Object.values(CHECK_EXIT_CODES))
      expect(codes).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });

  it('shows the CI workflow with the SARIF upload', () => {
    const ci = section('In CI');
    expect(ci).toContain('hintgate check --config hintgate.yaml --probe --sarif > hintgate.sarif');
    expect(ci).toContain('github/codeql-action/upload-sarif');
    expect(ci).toContain('security-events: write');
  });
});
