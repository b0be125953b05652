import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../audit/index.js';
import { canonicalText } from './canonical-text.js';

const key = fc.oneof(
  fc.constantFrom('__proto__', '0', '1', '10', '2', '01', '-1', '4294967295', 'toJSON'),
  fc.string({ maxLength: 5 }),
);
const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom(undefined, Number.NaN, -0, 1e21, new Date(0), 10n),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(key, tie('node'), { maxKeys: 5 }),
  ),
})).node;

describe('canonicalText', () => {
  it('is canonicalJson', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalText(v)).toBe(canonicalJson(v));
      }),
      { numRuns: 500 },
    );
  });

  it('with an indent, is the pretty form of canonicalJson, each later line indented', () => {
    fc.assert(
      fc.property(value, fc.constantFrom('', '  ', '        '), (v, indent) => {
        const pretty = JSON.stringify(JSON.parse(canonicalJson(v)), null, 2);
        expect(canonicalText(v, { indent })).toBe(pretty.replaceAll('\n', `\n${indent}`));
      }),
      { numRuns: 500 },
    );
  });
});
