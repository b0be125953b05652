import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostHeaderValues, isLocalhostHeader, LOCAL_NAMES } from './host-header.test-helpers.js';
import { normalizeAllowedHosts } from './http-security.js';
import { parseHostHeader } from './parse-host-header.js';

describe('parseHostHeader', () => {
  it.each([
    ['localhost', 'localhost', undefined],
    ['LOCALHOST:3000', 'localhost', '3000'],
    ['127.0.0.1:0', '127.0.0.1', '0'],
    ['[::1]:8080', '[::1]', '8080'],
    ['[::FFFF:127.0.0.1]', '[::ffff:127.0.0.1]', undefined],
    ['localhost:', 'localhost', ''],
    ['box.lan:65535', 'box.lan', '65535'],
    ['127.1', '127.1', undefined],
    ['a%2eb', 'a%2eb', undefined],
    ["sub-delims!$&'()*+,;=", "sub-delims!$&'()*+,;=", undefined],
  ])('reads %j as host %j, port %j', (value, hostname, port) => {
    expect(parseHostHeader(value)).toEqual({ ok: true, hostname, port });
  });

  it.each([
    [undefined, /missing or empty/],
    ['', /missing or empty/],
    [':3000', /the host is empty/],
    ['evil.com@localhost', /may not carry userinfo/],
    ['user:pass@localhost', /the port "pass@localhost" is not a number/],
    ['localhost/mcp', /"\/" may not appear in a host name/],
    ['localhost?x', /"\?" may not appear/],
    ['localhost#x', /"#" may not appear/],
    ['local host', /" " may not appear/],
    ['localhost\\x', /"\\\\" may not appear/],
    ['a%zz', /"%" must start a %XX escape/],
    ['localhost:65536', /the port 65536 is above 65535/],
    ['localhost:123456', /the port "123456" is not a number/],
    ['localhost:80:80', /the port "80:80" is not a number/],
    ['[::1', /"\[" of an IPv6 address is not closed/],
    ['[::1]x', /only ":" and a port may follow "\]"/],
    ['[127.0.0.1]', /"127\.0\.0\.1" in brackets is not an IPv6 address/],
    ['[fe80::1%25lo]', /in brackets is not an IPv6 address/],
    ['[v1.x]', /in brackets is not an IPv6 address/],
    ['::1', /an IPv6 address must be in brackets \("\[::1\]"\)/],
    ['fe80::1%lo', /must be in brackets/],
  ])('refuses %j: %s', (value, reason) => {
    const parsed = parseHostHeader(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(/^Bad Request: the Host .*(RFC 9110|missing)/);
    expect(parsed.ok ? '' : parsed.message).toMatch(reason);
  });

  it('never throws, and passes the localhost check only for localhost (fuzzed)', () => {
    const allowed = normalizeAllowedHosts(LOCAL_NAMES);
    fc.assert(
      fc.property(hostHeaderValues({ printable: false }), (value) => {
        const parsed = parseHostHeader(value);
        expect(parsed.ok && allowed.has(parsed.hostname)).toBe(isLocalhostHeader(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
