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

  it('is canonicalJson for data whose keys are sorted already (as a lock file is read back)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.constantFrom(undefined, '', '    '),
        (v, indent) => {
          const sorted: unknown = JSON.parse(canonicalJson(v));
          const text = canonicalJson(sorted);
          const expected =
            indent === undefined
              ? text
              : JSON.stringify(JSON.parse(text), null, 2).replaceAll('\n', `\n${indent}`);
          expect(canonicalText(sorted, indent === undefined ? {} : { indent })).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sorts an object whose keys are sorted except one nested deep inside', () => {
    const value = { a: [{ b: 1, c: { e: 1, d: 2 } }], f: { '10': 1, '2': 2, g: 3 } };
    expect(canonicalText(value)).toBe(canonicalJson(value));
    expect(canonicalText(value)).toBe('{"a":[{"b":1,"c":{"d":2,"e":1}}],"f":{"2":2,"10":1,"g":3}}');
  });

  it('with an indent, is the pretty form of canonicalJson, each later line indented', () => {
    fc.assert(
      fc.property(value, fc.constantFrom('', '  ', '   ', '\t', '        '), (v, indent) => {
        const pretty = JSON.stringify(JSON.parse(canonicalJson(v)), null, 2);
        expect(canonicalText(v, { indent })).toBe(pretty.replaceAll('\n', `\n${indent}`));
      }),
      { numRuns: 500 },
    );
  });

  it('with an indent, writes keys named "" and empty objects and lists as they are', () => {
    const values = [{}, [], { '': { '': 1 }, a: [] }, [{ '': null }, {}], { b: { a: 1, '': {} } }];
    for (const v of values) {
      for (const indent of ['  ', '        ']) {
        const pretty = JSON.stringify(JSON.parse(canonicalJson(v)), null, 2);
        expect(canonicalText(v, { indent })).toBe(pretty.replaceAll('\n', `\n${indent}`));
      }
    }
  });
});
