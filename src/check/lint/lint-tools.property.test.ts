import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HINT_NAMES } from '../../tool/annotations.js';
import { LINT_RULES } from './lint-rules.js';
import { compareFindings, lintTools } from './lint-tools.js';

const json = fc.jsonValue({ maxDepth: 4 });

const word = fc.constantFrom(
  'get',
  'delete',
  'rm',
  'send',
  'list',
  'create',
  'url',
  'note',
  'and',
  'reset',
  'download',
  'Ä',
  ' ',
  '',
);

/** Tool-shaped objects: the fields lint reads, each well-formed, malformed or absent. */
const toolLike = fc.record(
  {
    name: fc.oneof(
      fc.array(word, { maxLength: 4 }).map((words) => words.join('_')),
      fc.string(),
      json,
    ),
    title: fc.oneof(fc.string(), json),
    description: fc.oneof(
      fc
        .array(fc.oneof(word, fc.constantFrom('never', 'deletes', '.', 'to')), { maxLength: 12 })
        .map((words) => words.join(' ')),
      json,
    ),
    inputSchema: fc.oneof(
      fc.record(
        {
          type: fc.oneof(fc.constant('object'), json),
          properties: fc.oneof(fc.dictionary(fc.string(), json, { maxKeys: 3 }), json),
          additionalProperties: fc.oneof(fc.boolean(), json),
          anyOf: json,
        },
        { requiredKeys: [] },
      ),
      json,
    ),
    outputSchema: json,
    annotations: fc.oneof(
      fc.record(
        Object.fromEntries(HINT_NAMES.map((hint) => [hint, fc.oneof(fc.boolean(), json)])),
        { requiredKeys: [] },
      ),
      json,
    ),
  },
  { requiredKeys: [] },
);

const toolsValue = fc.oneof(
  fc.array(fc.oneof(toolLike, json), { maxLength: 6 }),
  json as fc.Arbitrary<unknown>,
);

const severities = new Map(LINT_RULES.map((rule) => [rule.id, rule.severity]));

describe('lintTools on arbitrary input', () => {
  it('never throws, and gives sorted, well-formed findings, the same each time', () => {
    fc.assert(
      fc.property(toolsValue, (tools) => {
        const findings = lintTools('server', tools as unknown[]);
        expect(lintTools('server', structuredClone(tools) as unknown[])).toEqual(findings);
        expect([...findings].sort(compareFindings)).toEqual(findings);
        for (const finding of findings) {
          expect(finding.severity).toBe(severities.get(finding.id));
          expect(finding.server).toBe('server');
          expect(finding.message).not.toBe('');
          expect(finding.fix).not.toBe('');
        }
        const keys = findings.map((finding) => JSON.stringify(finding));
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 500 },
    );
  });

  it('finds the same problems whatever the order of tools with distinct names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(toolLike, {
          maxLength: 5,
          selector: (tool) => JSON.stringify((tool as { name?: unknown }).name ?? null),
        }),
        (tools) => {
          const named = tools.filter((tool) => typeof tool.name === 'string');
          const reversed = [...named].reverse();
          const withoutIndexes = (list: readonly unknown[]) =>
            lintTools('server', list).filter((finding) => finding.id !== 'tool-invalid');
          expect(withoutIndexes(reversed)).toEqual(withoutIndexes(named));
        },
      ),
      { numRuns: 300 },
    );
  });
});
