import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import * as formatsModule from 'ajv-formats';

type FormatsPlugin = (ajv: Ajv) => unknown;
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin);

let validate: ValidateFunction | undefined;

/**
 * The SARIF 2.1.0 JSON schema as `@microsoft/jest-sarif` ships it (2.1.0-rtm.5, draft-04),
 * compiled once. Its draft-04 `$schema` and `id` are dropped: the keywords it uses mean the
 * same under the draft-07 validator. Its `language` pattern is not valid with the `u` flag
 * (a stray `]`), so patterns are compiled without it.
 */
function sarifValidator(): ValidateFunction {
  if (validate !== undefined) return validate;
  const require = createRequire(import.meta.url);
  const path = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const {
    $schema: _draft,
    id: _id,
    ...schema
  } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  validate = ajv.compile(schema);
  return validate;
}

/** The schema errors of a SARIF log, one line each; empty when it is valid SARIF 2.1.0. */
export function sarifSchemaErrors(log: unknown): string[] {
  const check = sarifValidator();
  if (check(log)) return [];
  return (check.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

/**
 * What GitHub code scanning needs beyond the schema for a result to be shown (its "SARIF
 * support for code scanning" page): rule id and texts, a message, at least one location
 * with a physical location (artifact URI and start line), and partial fingerprints.
 * Returns the problems, one line each.
 */
export function codeScanningProblems(log: unknown): string[] {
  const problems: string[] = [];
  const sarif = log as {
    runs: {
      tool: { driver: { name?: string; rules?: Record<string, { text?: string } | string>[] } };
      results: {
        ruleId?: string;
        ruleIndex?: number;
        message?: { text?: string };
        locations?: {
          physicalLocation?: {
            artifactLocation?: { uri?: string };
            region?: { startLine?: number };
          };
        }[];
        partialFingerprints?: Record<string, string>;
      }[];
    }[];
  };
  for (const run of sarif.runs) {
    const rules = run.tool.driver.rules ?? [];
    if (run.tool.driver.name === undefined) problems.push('tool.driver.name is missing');
    rules.forEach((rule, index) => {
      for (const field of ['shortDescription', 'fullDescription', 'help'] as const) {
        const text = (rule[field] as { text?: string } | undefined)?.text;
        if (typeof text !== 'string' || text === '') {
          problems.push(`rule ${index} has no ${field}.text`);
        }
      }
    });
    run.results.forEach((result, index) => {
      const rule = result.ruleIndex === undefined ? undefined : rules[result.ruleIndex];
      if (rule === undefined || rule.id !== result.ruleId) {
        problems.push(`result ${index}: ruleIndex does not point at rule ${result.ruleId}`);
      }
      if (!result.message?.text) problems.push(`result ${index} has no message.text`);
      const physical = result.locations?.[0]?.physicalLocation;
      if (!physical?.artifactLocation?.uri || physical.region?.startLine === undefined) {
        problems.push(`result ${index} has no physical location with a URI and a start line`);
      }
      if (Object.keys(result.partialFingerprints ?? {}).length === 0) {
        problems.push(`result ${index} has no partialFingerprints`);
      }
    });
  }
  return problems;
}
