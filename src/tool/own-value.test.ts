import { describe, expect, it } from 'vitest';
import { nullRecord } from './null-record.js';
import { ownValue } from './own-value.js';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

describe('ownValue', () => {
  it('finds nothing inherited from Object.prototype', () => {
    for (const name of PROTOTYPE_NAMES) expect(ownValue({ a: 1 }, name)).toBeUndefined();
  });

  it('finds own properties of those names, in parsed JSON too', () => {
    const parsed = JSON.parse(
      '{"__proto__": 1, "constructor": 2, "toString": 3, "valueOf": 4, "hasOwnProperty": 5}',
    ) as Record<string, number>;
    expect(PROTOTYPE_NAMES.map((name) => ownValue(parsed, name))).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes an absent record as empty', () => {
    expect(ownValue(undefined, 'a')).toBeUndefined();
  });
});

describe('nullRecord', () => {
  it('keeps a __proto__ key as data and inherits nothing', () => {
    const record = nullRecord(PROTOTYPE_NAMES.map((name, index) => [name, index] as const));
    expect(Object.getPrototypeOf(record)).toBeNull();
    expect(Object.keys(record)).toEqual(PROTOTYPE_NAMES);
    expect(PROTOTYPE_NAMES.map((name) => ownValue(record, name))).toEqual([0, 1, 2, 3, 4]);
    expect(nullRecord().toString).toBeUndefined();
  });
});
