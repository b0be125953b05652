import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from './classify-address.js';

const SPECIAL: ReadonlyArray<readonly [string, RegExp]> = [
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['127.0.0.1', /loopback/],
  ['127.255.0.9', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local .*metadata/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.254', /carrier-grade NAT/],
  ['192.0.0.8', /reserved/],
  ['192.0.2.1', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.7', /documentation/],
  ['240.0.0.1', /reserved/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['255.255.255.255', /broadcast/],
  ['::', /unspecified/],
  ['::1', /loopback/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['fc00::1', /unique-local/],
  ['fd12:3456::1', /unique-local/],
  ['fec0::1', /site-local/],
  ['ff02::1', /multicast/],
  ['100::1', /discard/],
  ['2001:db8::1', /documentation/],
  ['2001:2::1', /benchmarking/],
  ['3fff::1', /reserved/],
  ['::ffff:0:7f00:1', /IPv4-translated/],
  ['1::1', /outside global unicast/],
  ['4000::1', /outside global unicast/],
  // IPv4-mapped: the IPv4 address itself.
  ['::ffff:127.0.0.1', /loopback/],
  ['::ffff:7f00:1', /loopback/],
  ['::ffff:a9fe:a9fe', /link-local/],
  ['::ffff:0.0.0.0', /unspecified/],
  ['::ffff:10.0.0.1', /private/],
  // IPv4-compatible (deprecated).
  ['::127.0.0.1', /IPv4-compatible .* of 127\.0\.0\.1/],
  ['::a9fe:a9fe', /IPv4-compatible .* of 169\.254\.169\.254/],
  // NAT64, 6to4 and Teredo carrying a private IPv4 address.
  ['64:ff9b::127.0.0.1', /NAT64 address of 127\.0\.0\.1 \(loopback/],
  ['64:ff9b::a9fe:a9fe', /NAT64 address of 169\.254\.169\.254/],
  ['64:ff9b:1::1', /NAT64 local-use/],
  ['2002:7f00:1::1', /6to4 address of 127\.0\.0\.1/],
  ['2002:c0a8:101::', /6to4 address of 192\.168\.1\.1/],
  // Teredo: server 65.54.227.120, client (inverted) 192.168.1.1.
  ['2001:0:4136:e378:8000:63bf:3f57:fefe', /Teredo address of 192\.168\.1\.1/],
  // Teredo server 10.0.0.1.
  ['2001:0:a00:1::', /Teredo address of 10\.0\.0\.1/],
  ['not-an-address', /not an IP address/],
  ['127.1', /not an IP address/],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '172.32.0.1',
  '100.128.0.1',
  '192.175.48.1',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
];

describe('classifyAddress', () => {
  it.each(SPECIAL)('refuses %s as %s', (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.kind).toBe('special');
    expect(verdict.kind === 'special' ? verdict.reason : '').toMatch(reason);
  });

  it.each(PUBLIC)('lets %s through as public', (address) => {
    expect(classifyAddress(address).kind).toBe('public');
  });

  it('names an IPv4-mapped address by its IPv4 address', () => {
    expect(classifyAddress('::ffff:7f00:1').address).toBe('127.0.0.1');
    expect(classifyAddress('::FFFF:8.8.8.8').address).toBe('8.8.8.8');
  });

  it('judges every IPv6 form that carries an IPv4 address by that address', () => {
    const hex = (v4: string): [string, string] => {
      const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    };
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const kind = classifyAddress(v4).kind;
        const [high, low] = hex(v4);
        expect(classifyAddress(`::ffff:${v4}`).kind).toBe(kind);
        expect(classifyAddress(`::ffff:${high}:${low}`).kind).toBe(kind);
        expect(classifyAddress(`64:ff9b::${v4}`).kind).toBe(kind);
        expect(classifyAddress(`2002:${high}:${low}::1`).kind).toBe(kind);
        // Never public in the deprecated IPv4-compatible form.
        expect(classifyAddress(`::${v4}`).kind).toBe('special');
      }),
      { numRuns: 2000 },
    );
  });
});
