import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces, hostname as osHostname } from 'node:os';
import { parseHostHeader, quoteHeader } from './parse-host-header.js';

/** Host names a local server answers to: `localhost`, `127.0.0.1` and `[::1]`. */
export const LOCALHOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** A host as it appears in a `Host` header or a URL: IPv6 addresses in brackets. */
export const bracketHost = (host: string): string =>
  host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

/** Default address of `startMcpHttpServer`: loopback only. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** True for a host name or address that only this machine reaches. */
export const isLoopbackHost = (host: string): boolean =>
  LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** True for an address that binds every interface (`0.0.0.0`, `::`). */
export const isWildcardHost = (host: string): boolean => WILDCARD.has(host.toLowerCase());

/**
 * The host names accepted in `Host` and `Origin` headers for a server bound to `host`:
 * the localhost names, plus `host` itself when it is not loopback, plus this machine's
 * addresses and name when it binds every interface. Anything else is refused, which is
 * what stops DNS rebinding: a page on `evil.example` that resolves to this machine still
 * sends `Host: evil.example`.
 */
export function allowedHostnames(host: string): string[] {
  const names = new Set(LOCALHOST_NAMES);
  const lower = host.toLowerCase();
  if (isWildcardHost(lower)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(bracketHost(address.address.toLowerCase()));
    }
    names.add(osHostname().toLowerCase());
  } else if (!isLoopbackHost(lower)) {
    names.add(bracketHost(lower));
  }
  return [...names];
}

/** A refusal of {@link checkRequestHosts}: 400 for a malformed header, 403 for a foreign host. */
export interface HostRefusal {
  readonly status: 400 | 403;
  /** What is wrong and what to send instead. */
  readonly message: string;
}

/**
 * Normalizes entries of an allowed-hosts list as {@link checkRequestHosts} compares them:
 * lowercase, IPv6 addresses in brackets.
 */
export const normalizeAllowedHosts = (hosts: readonly string[]): ReadonlySet<string> =>
  new Set(hosts.map((host) => bracketHost(host.toLowerCase())));

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/** Why one serialized origin (RFC 6454: `scheme "://" host [ ":" port ]`) is refused. */
const originRefusal = (origin: string, allowed: ReadonlySet<string>): HostRefusal | undefined => {
  if (origin === 'null') {
    return {
      status: 403,
      message: 'Forbidden: requests from an opaque origin (Origin: null) are not accepted.',
    };
  }
  const separator = origin.indexOf('://');
  const parsed =
    separator > 0 && SCHEME.test(origin.slice(0, separator))
      ? parseHostHeader(origin.slice(separator + 3))
      : undefined;
  if (parsed === undefined || !parsed.ok) {
    return {
      status: 400,
      message: `Bad Request: the Origin ${quoteHeader(origin)} is not scheme://host[:port] (RFC 6454 section 7)${parsed === undefined ? '' : `: ${parsed.reason}`}.`,
    };
  }
  if (!allowed.has(parsed.hostname)) {
    return {
      status: 403,
      message: `Forbidden: Origin host ${quoteHeader(parsed.hostname)} is not allowed.`,
    };
  }
  return undefined;
};

/**
 * Checks the `Host` and `Origin` headers of a request against the allowed host names
 * (see {@link normalizeAllowedHosts}): exactly one `Host`, parsed strictly (see
 * `parseHostHeader`), whose host is allowed; at most one `Origin`, absent (clients that are
 * not browsers send none) or serialized origins (RFC 6454) whose hosts are allowed. A
 * malformed header is a 400, a well-formed one naming another host a 403 (what stops DNS
 * rebinding: a page on `evil.example` that resolves to this machine still sends
 * `Host: evil.example`). Never throws, whatever the headers hold.
 */
export function checkRequestHosts(
  request: IncomingMessage,
  allowed: ReadonlySet<string>,
): HostRefusal | undefined {
  const hosts = request.headersDistinct.host ?? [];
  if (hosts.length > 1) {
    return {
      status: 400,
      message: 'Bad Request: more than one Host header (RFC 9110 section 7.2).',
    };
  }
  const host = parseHostHeader(hosts[0]);
  if (!host.ok) return { status: 400, message: host.message };
  if (!allowed.has(host.hostname)) {
    return {
      status: 403,
      message: `Forbidden: Host ${quoteHeader(host.hostname)} is not allowed.`,
    };
  }
  const origins = request.headersDistinct.origin ?? [];
  if (origins.length > 1) {
    return { status: 400, message: 'Bad Request: more than one Origin header.' };
  }
  const [origin] = origins;
  if (origin === undefined) return undefined;
  for (const one of origin.split(' ')) {
    const refusal = originRefusal(one, allowed);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether the request carries `Authorization: Bearer <token>`. Compares digests in
 * constant time, so neither the token's content nor its length leaks through timing.
 */
export function hasBearerToken(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const presented = match?.[1] ?? '';
  // Compare even when the header is malformed, so that every refusal costs the same.
  return timingSafeEqual(digest(presented), digest(token)) && match !== null;
}
