import type ipaddr from 'ipaddr.js';
import { HintgateError } from '../errors/index.js';
import { parseIpAddress } from './parse-ip-address.js';

/** What `web_fetch` may reach although it is private or special-use; see {@link createFetchAllowList}. */
export interface FetchAllowList {
  /** The entries as given. */
  readonly entries: readonly string[];
  /** True when a URL's host name (lowercase, as the URL parser gives it) is listed by name. */
  allowsHost(hostname: string): boolean;
  /** True when an IP address lies in a listed address or CIDR range. */
  allowsAddress(address: string): boolean;
}

type Range = readonly [ipaddr.IPv4 | ipaddr.IPv6, number];

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

const bad = (entry: unknown, why: string): never => {
  throw new HintgateError(
    'invalid_option',
    `fetchAllow entry ${JSON.stringify(entry)} ${why}; give an IP address (127.0.0.1, ::1), a CIDR range (10.0.0.0/8, fd00::/8), a host name (dev.internal) or *. and a domain (*.corp.example).`,
  );
};

/** An address without its zone, IPv4-mapped IPv6 as IPv4; undefined for no address. */
const parseAddress = (text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  const parsed = parseIpAddress(text);
  if (parsed === undefined) return undefined;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
};

const parseRange = (entry: string): Range | undefined => {
  const slash = entry.lastIndexOf('/');
  const address = parseAddress(slash === -1 ? entry : entry.slice(0, slash));
  if (address === undefined) return undefined;
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  if (slash === -1) return [address, bits];
  const prefix = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) {
    return bad(entry, `has a prefix length that is not 0-${bits}`);
  }
  return [address, Number(prefix)];
};

/** A host name as the URL parser writes it, or a `*.` domain pattern; undefined otherwise. */
const parseName = (entry: string): string | undefined => {
  const name = entry.toLowerCase().replace(/\.$/, '');
  const labels = (name.startsWith('*.') ? name.slice(2) : name).split('.');
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  // The URL parser reads a name whose last label is a number as an IPv4 address.
  if (/^(?:0x[0-9a-f]*|\d+)$/.test(labels.at(-1) ?? '')) {
    return bad(entry, 'looks like an IP address in a short or numeric form; write it as a.b.c.d');
  }
  return name;
};

/**
 * Checks and compiles the allow list of `web_fetch`: private and special-use addresses it
 * may reach. An entry is an IP address (`127.0.0.1`, `::1`), a CIDR range (`10.0.0.0/8`,
 * `fd00::/8`), a host name (`localhost`, `dev.internal`: that name is reached whatever it
 * resolves to) or `*.` and a domain (`*.corp.example`: every name under it, not the domain
 * itself). IPv4-mapped IPv6 addresses match as their IPv4 address.
 *
 * @throws HintgateError `invalid_option` for an entry that is none of these.
 */
export function createFetchAllowList(entries: readonly string[] = []): FetchAllowList {
  if (!Array.isArray(entries)) {
    throw new HintgateError(
      'invalid_option',
      'fetchAllow must be an array of IP addresses, CIDR ranges or host names, e.g. ["127.0.0.1", "10.0.0.0/8"].',
    );
  }
  const ranges: Range[] = [];
  const names = new Set<string>();
  const domains: string[] = [];
  for (const entry of entries as readonly unknown[]) {
    if (typeof entry !== 'string' || entry.trim() === '') bad(entry, 'is not a non-empty string');
    const text = (entry as string).trim();
    const range = parseRange(text);
    if (range !== undefined) {
      ranges.push(range);
      continue;
    }
    const name = parseName(text);
    if (name === undefined) bad(entry, 'is not an address, a range or a host name');
    else if (name.startsWith('*.')) domains.push(name.slice(1));
    else names.add(name);
  }
  return {
    entries: Object.freeze([...(entries as readonly string[])]),
    allowsHost(hostname) {
      const name = hostname.toLowerCase().replace(/\.$/, '');
      return names.has(name) || domains.some((domain) => name.endsWith(domain));
    },
    allowsAddress(text) {
      const address = parseAddress(text);
      if (address === undefined) return false;
      return ranges.some(
        ([base, bits]) => base.kind() === address.kind() && address.match(base, bits),
      );
    },
  };
}
