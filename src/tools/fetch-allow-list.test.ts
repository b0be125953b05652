import { describe, expect, it } from 'vitest';
import { createFetchAllowList } from './fetch-allow-list.js';

describe('createFetchAllowList', () => {
  it('matches addresses, CIDR ranges and IPv4-mapped forms of them', () => {
    const allow = createFetchAllowList(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1']);
    expect(allow.allowsAddress('127.0.0.1')).toBe(true);
    expect(allow.allowsAddress('::ffff:127.0.0.1')).toBe(true);
    expect(allow.allowsAddress('127.0.0.2')).toBe(false);
    expect(allow.allowsAddress('10.200.3.4')).toBe(true);
    expect(allow.allowsAddress('::ffff:a00:1')).toBe(true);
    expect(allow.allowsAddress('11.0.0.1')).toBe(false);
    expect(allow.allowsAddress('fd12::1')).toBe(true);
    expect(allow.allowsAddress('fc00::1')).toBe(false);
    expect(allow.allowsAddress('::1')).toBe(true);
    expect(allow.allowsAddress('no address')).toBe(false);
    expect(allow.allowsHost('127.0.0.1')).toBe(false);
  });

  it('matches host names exactly, and *. domains below the domain only', () => {
    const allow = createFetchAllowList(['LocalHost', 'dev.internal.', '*.corp.example']);
    expect(allow.allowsHost('localhost')).toBe(true);
    expect(allow.allowsHost('dev.internal')).toBe(true);
    expect(allow.allowsHost('x.dev.internal')).toBe(false);
    expect(allow.allowsHost('a.corp.example')).toBe(true);
    expect(allow.allowsHost('a.b.corp.example')).toBe(true);
    expect(allow.allowsHost('corp.example')).toBe(false);
    expect(allow.allowsHost('evilcorp.example')).toBe(false);
    expect(allow.allowsAddress('127.0.0.1')).toBe(false);
  });

  it.each([
    ['', /not a non-empty string/],
    ['10.0.0.0/33', /prefix length that is not 0-32/],
    ['fd00::/129', /prefix length that is not 0-128/],
    ['10.0.0.0/x', /prefix length/],
    ['127.1', /short or numeric form/],
    ['2130706433', /short or numeric form/],
    ['0x7f.1', /short or numeric form/],
    ['http://localhost', /is not an address, a range or a host name/],
    ['localhost:8080', /is not an address, a range or a host name/],
    ['evil.com@localhost', /is not an address, a range or a host name/],
    ['*', /is not an address, a range or a host name/],
    ['-bad.example', /is not an address, a range or a host name/],
  ])('refuses the entry %j with what to write instead', (entry, message) => {
    expect(() => createFetchAllowList([entry])).toThrow(message);
    expect(() => createFetchAllowList([entry])).toThrow(/give an IP address .*CIDR range/);
  });

  it('refuses what is not a list of strings', () => {
    expect(() => createFetchAllowList('127.0.0.1' as never)).toThrow(/must be an array/);
    expect(() => createFetchAllowList([42 as never])).toThrow(/not a non-empty string/);
  });
});
