import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Parses an IP address strictly: dotted-decimal IPv4 or IPv6 as `net.isIP` accepts it,
 * without a zone (`%eth0` is dropped). Undefined for anything else, so `127.1` or
 * `0x7f000001` are no addresses here. IPv6 goes through the URL parser's serialization
 * first, because ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d`
 * (IPv4-mapped).
 */
export function parseIpAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.replace(/%.*$/s, '');
  switch (isIP(bare)) {
    case 4:
      return ipaddr.IPv4.parse(bare);
    case 6:
      return ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
    default:
      return undefined;
  }
}
