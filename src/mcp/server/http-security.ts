import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces, hostname as osHostname } from 'node:os';

/** Host names a local server answers to: `localhost`, `127.0.0.1` and `[::1]`. */
export const LOCALHOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** A host as it appears in a `Host` header or a URL: IPv6 addresses in brackets. */
export const bracketHost = (host: string): string =>
  host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

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
