import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../audit/index.js';
import { canonicalCopy } from './canonical-copy.js';

describe('canonicalCopy', () => {
  it('has the canonical text of its value as its plain JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const copy = canonicalCopy(v);
        expect(canonicalJson(copy)).toBe(canonicalJson(v));
        if (!JSON.stringify(v).includes('"__proto__"')) {
          expect(JSON.stringify(copy)).toBe(canonicalJson(v));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('sorts keys at every depth, array indexes first, without touching the original', () => {
    const value = { z: [{ b: 1, a: 2 }], '10': true, a: { d: null, c: 'x' }, '2': false };
    const copy = canonicalCopy(value);
    expect(JSON.stringify(copy)).toBe(
      '{"2":false,"10":true,"a":{"c":"x","d":null},"z":[{"a":2,"b":1}]}',
    );
    expect(Object.keys(value.a)).toEqual(['d', 'c']);
  });

  it('keeps a value with toJSON, a class instance and an object with a __proto__ key as they are', () => {
    const date = new Date(0);
    const map = new Map([['b', 1]]);
    const hostile = JSON.parse('{"b":1,"__proto__":{"polluted":true},"a":2}') as object;
    const copy = canonicalCopy({ date, map, hostile });
    expect(copy.date).toBe(date);
    expect(copy.map).toBe(map);
    expect(copy.hostile).toBe(hostile);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
