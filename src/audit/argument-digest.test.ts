import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentDigest, canonicalJson, redactSecrets, SECRET_FIELD } from './argument-digest.js';

/** A deep copy of `value` with every object's keys inserted in reverse order. */
const reversedKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, field]) => [key, reversedKeys(field)]),
    );
  }
  return value;
};

describe('canonicalJson', () => {
  it('sorts object keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 3 } })).toBe(
      '{"a":{"c":3,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives equal text whatever the key order', () => {
    expect(canonicalJson({ path: 'a', mode: 'w', opts: { x: 1, y: 2 } })).toBe(
      canonicalJson({ opts: { y: 2, x: 1 }, mode: 'w', path: 'a' }),
    );
  });

  it('keeps a "__proto__" key, as JSON.parse gives it', () => {
    const parsed: unknown = JSON.parse('{"__proto__":{"a":1},"b":2}');
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"a":1},"b":2}');
    expect(canonicalJson(parsed)).not.toBe(canonicalJson({ b: 2 }));
  });

  it('keeps array order', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('writes bigints as strings, Dates as JSON does, and undefined as null', () => {
    expect(canonicalJson({ n: 10n })).toBe('{"n":"10"}');
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('argumentDigest', () => {
  it('is sha256: and 64 hex digits of the canonical JSON', () => {
    // sha256 of the two characters `{}`.
    expect(argumentDigest({})).toBe(
      'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
    );
    expect(argumentDigest({ path: 'a.ts' })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes the UTF-8 bytes of the canonical JSON, non-ASCII text included', () => {
    const value = { note: 'héllo wörld ✓ 😀', b: [1, '\u0000'] };
    const text = Buffer.from(canonicalJson(value), 'utf8');
    expect(argumentDigest(value)).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
  });

  it('is equal for reordered keys and different for different values', () => {
    expect(argumentDigest({ a: 1, b: { c: 2, d: 3 } })).toBe(
      argumentDigest({ b: { d: 3, c: 2 }, a: 1 }),
    );
    expect(argumentDigest({ a: 1 })).not.toBe(argumentDigest({ a: 2 }));
    expect(argumentDigest({ a: '1' })).not.toBe(argumentDigest({ a: 1 }));
    expect(argumentDigest({ at: new Date(0) })).not.toBe(argumentDigest({ at: new Date(1) }));
  });

  it('is independent of key order for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(argumentDigest(reversedKeys(value))).toBe(argumentDigest(value));
      }),
    );
  });
});

describe('redactSecrets', () => {
  it('replaces the values of secret-looking fields, keeping the rest', () => {
    expect(
      redactSecrets({
        user: 'ann',
        password: 'hunter2',
        apiKey: 'k1',
        api_key: 'k2',
        Authorization: 'Bearer x',
        token: 't',
        path: 'a.ts',
      }),
    ).toEqual({
      user: 'ann',
      password: '[redacted]',
      apiKey: '[redacted]',
      api_key: '[redacted]',
      Authorization: '[redacted]',
      token: '[redacted]',
      path: 'a.ts',
    });
  });

  it('keeps an argument named __proto__ as a field, redacting inside it', () => {
    const args = JSON.parse('{"__proto__": {"token": "t", "path": "a.ts"}, "constructor": 1}');
    const copy = redactSecrets(args) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(
      '{"__proto__":{"token":"[redacted]","path":"a.ts"},"constructor":1}',
    );
  });

  it('redacts inside nested objects and arrays, and a secret field holding an object', () => {
    expect(
      redactSecrets({
        requests: [{ url: 'u', headers: { authorization: 'b', accept: 'json' } }, 'plain'],
        credentials: { user: 'u', pass: 'p' },
      }),
    ).toEqual({
      requests: [{ url: 'u', headers: { authorization: '[redacted]', accept: 'json' } }, 'plain'],
      credentials: '[redacted]',
    });
  });

  it('does not mutate its input', () => {
    const input = { password: 'p', nested: { apiKey: 'k', list: [{ secret: 's' }] } };
    const before = structuredClone(input);
    const output = redactSecrets(input);
    expect(input).toEqual(before);
    expect(output).not.toBe(input);
  });

  it('passes primitives through', () => {
    expect(redactSecrets('password')).toBe('password');
    expect(redactSecrets(3)).toBe(3);
    expect(redactSecrets(null)).toBeNull();
  });

  it('copies a Date as its JSON form rather than as an empty object', () => {
    expect(redactSecrets({ at: new Date(0) })).toEqual({ at: '1970-01-01T00:00:00.000Z' });
  });

  it('takes a custom predicate for secret fields', () => {
    expect(redactSecrets({ ssn: '1', password: 'p' }, (field) => field === 'ssn')).toEqual({
      ssn: '[redacted]',
      password: 'p',
    });
  });

  it('matches common secret names with SECRET_FIELD and leaves ordinary ones', () => {
    for (const field of ['passphrase', 'clientSecret', 'private_key', 'cookie', 'sessionId']) {
      expect(SECRET_FIELD.test(field)).toBe(true);
    }
    for (const field of ['path', 'query', 'content', 'url']) {
      expect(SECRET_FIELD.test(field)).toBe(false);
    }
  });
});
