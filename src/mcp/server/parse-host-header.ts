import { isIPv6 } from 'node:net';

/** A `Host` header (or an origin's authority), parsed; or why it is malformed. */
export type ParsedHost =
  | {
      readonly ok: true;
      /** Lowercase host: a name, a dotted IPv4 address or an IPv6 address in brackets. */
      readonly hostname: string;
      /** The port's digits as sent, possibly empty; undefined without a `:`. */
      readonly port: string | undefined;
    }
  | {
      readonly ok: false;
      /** What is wrong, for the 400 answer. */
      readonly message: string;
      /** The part of `message` that says what is wrong with the value. */
      readonly reason: string;
    };

/** RFC 3986 reg-name: unreserved, sub-delims and percent-encoded octets. */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;
const REG_NAME_CHAR = /[A-Za-z0-9\-._~!$&'()*+,;=%]/;

/** A hostile value shown back in a message: JSON-quoted and cut. */
export const quoteHeader = (value: string): string =>
  JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}...` : value);

const malformed = (value: string, why: string): ParsedHost => ({
  ok: false,
  reason: why,
  message: `Bad Request: the Host ${quoteHeader(value)} is not host[:port] (RFC 9110 section 7.2, RFC 3986 section 3.2.2): ${why}.`,
});

/**
 * Parses a `Host` header value strictly by RFC 9110 (`uri-host [ ":" port ]`) and RFC 3986:
 * an IPv6 address in brackets, or a reg-name (letters, digits, `-._~`, sub-delims,
 * `%XX`), then an optional `:` and digits. No userinfo (`user@`), path, query, fragment,
 * whitespace, zone (`%25eth0`) or IPvFuture; an empty host and a port above 65535 are
 * malformed too. Numeric forms are kept as written (`127.1` is a name here, not
 * `127.0.0.1`), so they only match an allowed name spelled the same way.
 */
export function parseHostHeader(value: string | undefined): ParsedHost {
  if (value === undefined || value === '') {
    return {
      ok: false,
      reason: 'the host is empty',
      message:
        'Bad Request: the Host header is missing or empty; send the server\'s host, e.g. "localhost:3000".',
    };
  }
  let host = value;
  let port: string | undefined;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close === -1) return malformed(value, 'the "[" of an IPv6 address is not closed');
    host = value.slice(0, close + 1);
    const rest = value.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return malformed(value, 'only ":" and a port may follow "]"');
      port = rest.slice(1);
    }
    const address = host.slice(1, -1);
    if (!isIPv6(address) || address.includes('%')) {
      return malformed(value, `${quoteHeader(address)} in brackets is not an IPv6 address`);
    }
  } else {
    if (isIPv6(value.replace(/%.*$/s, ''))) {
      return malformed(value, `an IPv6 address must be in brackets (${quoteHeader(`[${value}]`)})`);
    }
    const colon = value.indexOf(':');
    if (colon !== -1) {
      host = value.slice(0, colon);
      port = value.slice(colon + 1);
    }
    if (host === '') return malformed(value, 'the host is empty');
    if (!REG_NAME.test(host)) {
      const bad = [...host].find((char) => !REG_NAME_CHAR.test(char));
      return malformed(
        value,
        bad === '@'
          ? 'it may not carry userinfo ("user@")'
          : bad === undefined
            ? '"%" must start a %XX escape'
            : `${quoteHeader(bad)} may not appear in a host name`,
      );
    }
  }
  if (port !== undefined && !/^\d{0,5}$/.test(port)) {
    return malformed(value, `the port ${quoteHeader(port)} is not a number`);
  }
  if (port !== undefined && Number(port) > 65_535) {
    return malformed(value, `the port ${port} is above 65535`);
  }
  return { ok: true, hostname: host.toLowerCase(), port };
}
