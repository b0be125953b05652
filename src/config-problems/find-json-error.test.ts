import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonError } from './find-json-error.js';

describe('findJsonError', () => {
  it.each([
    ['', 0, 'expected a value but found the end of the file'],
    ['{', 1, 'expected a key in double quotes but found the end of the file'],
    ['{"a":1,}', 7, 'expected a key in double quotes but found "}"'],
    ['{"a" 1}', 5, 'expected ":" after the key but found "1"'],
    ['{"a":1 "b":2}', 7, 'expected "," or "}" but found "\\""'],
    ['[1,]', 3, 'expected a value but found "]"'],
    ['[1', 2, 'expected "," or "]" but found the end of the file'],
    ['{"a": tru}', 6, 'expected a value but found "t"'],
    ['{"a": 01}', 7, 'expected "," or "}" but found "1"'],
    ['{"a": "x\\q"}', 8, 'invalid escape "\\\\q" in a string'],
    ['{"a": "\\u12"}', 7, 'a "\\u" escape needs four hex digits'],
    ['{"a": "x\ny"}', 8, 'a control character in a string; escape it, as in "\\n"'],
    ['{"a": "x', 8, 'a string is never closed; end it with a double quote'],
    ['{} {}', 3, 'unexpected "{" after the end of the JSON value'],
    ['// c\n{}', 0, 'expected a value but found "/"'],
  ])('finds the error of %j', (text, offset, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonError(text)).toEqual({ offset, reason });
  });

  it('handles nesting deeper than the call stack', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(findJsonError(deep)).toBeUndefined();
    expect(findJsonError(`${deep}]`)).toEqual({
      offset: 400_000,
      reason: 'unexpected "]" after the end of the JSON value',
    });
  });

  it('agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(findJsonError(JSON.stringify(value, null, 2))).toBeUndefined();
      }),
    );
    const unit = fc.constantFrom(...'{}[]":,1 0-.eEa\\nu'.split(''));
    const jsonish = fc.string({ unit, maxLength: 12 });
    fc.assert(
      fc.property(jsonish, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(findJsonError(text) === undefined).toBe(valid);
      }),
      { numRuns: 5000 },
    );
  });
});
