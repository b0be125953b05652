import ipaddr from 'ipaddr.js';
import { parseIpAddress } from './parse-ip-address.js';

/** How `web_fetch` sees one IP address: reachable on the public internet, or not. */
export type AddressClass =
  | {
      readonly kind: 'public';
      /** The address in canonical form (an IPv4-mapped IPv6 address as its IPv4 address). */
      readonly address: string;
    }
  | {
      readonly kind: 'special';
      /** The address in canonical form (an IPv4-mapped IPv6 address as its IPv4 address). */
      readonly address: string;
      /** Why it is not public, e.g. `loopback (127.0.0.0/8)`. */
      readonly reason: string;
    };

/** ipaddr.js range names of IPv4, with what a person reads. */
const IPV4_REASONS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified ("this network", 0.0.0.0/8)',
  broadcast: 'broadcast (255.255.255.255)',
  multicast: 'multicast (224.0.0.0/4)',
  linkLocal: 'link-local (169.254.0.0/16, where cloud metadata services answer)',
  loopback: 'loopback (127.0.0.0/8)',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  private: 'private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
  reserved: 'reserved, documentation or benchmarking (RFC 5735, 5737, 2544)',
};

/** ipaddr.js range names of IPv6, with what a person reads. */
const IPV6_REASONS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified (::)',
  linkLocal: 'link-local (fe80::/10)',
  multicast: 'multicast (ff00::/8)',
  loopback: 'loopback (::1)',
  uniqueLocal: 'unique-local (fc00::/7)',
  deprecatedSiteLocal: 'site-local (fec0::/10)',
  discard: 'discard-only (100::/64)',
  rfc6145: 'IPv4-translated (::ffff:0:0:0/96)',
  benchmarking: 'benchmarking (2001:2::/48)',
  deprecatedOrchid: 'ORCHID (2001:10::/28)',
  orchid2: 'ORCHIDv2 (2001:20::/28)',
  droneRemoteIdProtocolEntityTags: 'drone remote ID (2001:30::/28)',
  segmentRouting: 'segment routing (5f00::/16)',
  reserved: 'reserved or documentation (2001::/23, 2001:db8::/32, 3fff::/20)',
};

/** Special-purpose ranges that are globally reachable (IANA registries), so public here. */
const GLOBAL_RANGES: ReadonlySet<string> = new Set(['unicast', 'as112', 'as112v6', 'amt']);

const v4Of = (bytes: readonly number[]): ipaddr.IPv4 =>
  new ipaddr.IPv4([bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0]);

const classifyV4 = (address: ipaddr.IPv4): AddressClass => {
  const range = address.range();
  const text = address.toString();
  if (GLOBAL_RANGES.has(range)) return { kind: 'public', address: text };
  return { kind: 'special', address: text, reason: IPV4_REASONS[range] ?? range };
};

/** An IPv6 address that carries an IPv4 address: public only when that one is. */
const embedding = (text: string, what: string, embedded: readonly ipaddr.IPv4[]): AddressClass => {
  for (const inner of embedded) {
    const verdict = classifyV4(inner);
    if (verdict.kind === 'special') {
      return { kind: 'special', address: text, reason: `${what} of ${inner} (${verdict.reason})` };
    }
  }
  return { kind: 'public', address: text };
};

const classifyV6 = (address: ipaddr.IPv6): AddressClass => {
  if (address.isIPv4MappedAddress()) return classifyV4(address.toIPv4Address());
  const text = address.toRFC5952String();
  const bytes = address.toByteArray();
  const range = address.range();
  switch (range) {
    case 'rfc6052':
      // 64:ff9b::/96 carries the IPv4 address in its last 32 bits; the local-use prefix
      // 64:ff9b:1::/48 (RFC 8215) places it by a prefix length only the network knows.
      if (address.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) {
        return embedding(text, 'NAT64 address', [v4Of(bytes.slice(12))]);
      }
      return { kind: 'special', address: text, reason: 'NAT64 local-use (64:ff9b:1::/48)' };
    case '6to4':
      return embedding(text, '6to4 address', [v4Of(bytes.slice(2, 6))]);
    case 'teredo':
      // RFC 4380: the Teredo server's address, then the client's, stored inverted.
      return embedding(text, 'Teredo address', [
        v4Of(bytes.slice(4, 8)),
        v4Of(bytes.slice(12).map((b) => b ^ 0xff)),
      ]);
  }
  if (!GLOBAL_RANGES.has(range)) {
    return { kind: 'special', address: text, reason: IPV6_REASONS[range] ?? range };
  }
  // Global unicast is 2000::/3; the rest of the space is unassigned or special.
  if ((bytes[0] ?? 0) >> 5 !== 0b001 && range === 'unicast') {
    const compatible = bytes.slice(0, 12).every((b) => b === 0);
    return {
      kind: 'special',
      address: text,
      reason: compatible
        ? `IPv4-compatible (deprecated, ::/96) form of ${v4Of(bytes.slice(12))}`
        : 'outside global unicast (2000::/3)',
    };
  }
  return { kind: 'public', address: text };
};

/**
 * Classifies an IP address for `web_fetch`: public, or a private or special-use address
 * (loopback, private, link-local, unique-local, carrier-grade NAT, unspecified, multicast,
 * broadcast, reserved, documentation, benchmarking, ...) with the reason. IPv6 forms that
 * carry an IPv4 address are judged by it: IPv4-mapped (`::ffff:127.0.0.1` is `127.0.0.1`),
 * NAT64 (`64:ff9b::/96`), 6to4 (`2002::/16`) and Teredo (`2001::/32`); IPv4-compatible
 * (`::/96`) and everything else outside `2000::/3` is special. A zone (`%eth0`) is ignored.
 * A string that is no IP address at all is special too.
 */
export function classifyAddress(input: string): AddressClass {
  const parsed = parseIpAddress(input);
  if (parsed === undefined) return { kind: 'special', address: input, reason: 'not an IP address' };
  return parsed.kind() === 'ipv4'
    ? classifyV4(parsed as ipaddr.IPv4)
    : classifyV6(parsed as ipaddr.IPv6);
}
