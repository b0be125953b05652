import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { classifyAddress } from './classify-address.js';
import type { FetchAllowList } from './fetch-allow-list.js';

/** One answer of a {@link ResolveHost}. */
export interface ResolvedAddress {
  /** The IP address. */
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/**
 * Resolves a host name to its addresses, as `dns.lookup(name, { all: true })` does (the
 * default). `web_fetch` resolves a name once per connection, checks every answer and
 * connects only to those it checked.
 */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** What {@link guardedGet} lets through. */
export interface AddressGuard {
  /** Private and special-use addresses and names that may be reached all the same. */
  readonly allow: FetchAllowList;
  /** How names are resolved. */
  readonly resolveHost: ResolveHost;
}

/** Options of {@link guardedGet}. */
export interface GuardedGetOptions {
  readonly guard: AddressGuard;
  /** Request headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborts the request, the connection and the response. */
  readonly signal: AbortSignal;
}

/** The default {@link ResolveHost}: the system resolver, every address. */
export const resolveWithDns: ResolveHost = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The error of a refused address. Its message starts with `Refused:` and says how to allow
 * the address.
 */
const refusal = (url: URL, address: string, reason: string): Error => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const via = host === address ? '' : ` (${url.hostname} resolves to ${address})`;
  return new Error(
    `Refused: ${url.origin}${via} is not a public address: ${reason}. web_fetch does not reach private or special-use addresses unless they are in its allow list (the fetchAllow option; hintgate serve --fetch-allow ${address}).`,
  );
};

/**
 * GETs `url` (http or https), reaching only public addresses and those in the allow list.
 * A literal address is checked before anything is sent; a name is resolved once per
 * connection, every answer is checked, and the socket connects only to the answers that
 * passed (a custom `lookup`, so a DNS answer that changes between check and connect changes
 * nothing), refusing the name when none did; the address the
 * socket actually reached is checked again before a byte of the request (or a TLS
 * handshake) goes out. A name in the allow list is reached whatever it resolves to.
 * Resolves to the response, whose body the caller reads or destroys; the connection is not
 * kept alive.
 */
export function guardedGet(url: URL, options: GuardedGetOptions): Promise<IncomingMessage> {
  const { guard, signal } = options;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(hostname) !== 0;
  const trustedName = !literal && guard.allow.allowsHost(hostname);
  /** The refusal of an address that may not be reached; undefined when it may. */
  const refused = (address: string): Error | undefined => {
    if (trustedName || guard.allow.allowsAddress(address)) return undefined;
    const verdict = classifyAddress(address);
    return verdict.kind === 'special' ? refusal(url, verdict.address, verdict.reason) : undefined;
  };
  const check = (address: string): void => {
    const error = refused(address);
    if (error !== undefined) throw error;
  };
  try {
    if (literal) check(hostname);
  } catch (error) {
    return Promise.reject(error);
  }

  /**
   * The answers for `name` of one family (0: any) that may be reached; throws the first
   * refusal when there is none.
   */
  const resolveChecked = async (name: string, family: number): Promise<ResolvedAddress[]> => {
    const answers = (await guard.resolveHost(name)).filter(
      (a) => family === 0 || a.family === family,
    );
    const usable = answers.filter((a) => refused(a.address) === undefined);
    const first = answers[0];
    if (first === undefined) {
      throw new Error(`${name} has no ${family === 0 ? '' : `IPv${family} `}address.`);
    }
    if (usable.length === 0) check(first.address);
    return usable.map(({ address, family }) => ({ address, family }));
  };
  const lookup: LookupFunction = (name, lookupOptions, callback) => {
    const wanted: unknown = lookupOptions.family;
    const family =
      wanted === 4 || wanted === 'IPv4' ? 4 : wanted === 6 || wanted === 'IPv6' ? 6 : 0;
    resolveChecked(name, family).then(
      (usable) => {
        const [first] = usable;
        if (lookupOptions.all === true) callback(null, usable);
        else if (first !== undefined) callback(null, first.address, first.family);
      },
      (error: unknown) =>
        callback(
          (error instanceof Error ? error : new Error(String(error))) as NodeJS.ErrnoException,
          '',
        ),
    );
  };

  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  const createConnection = (
    _options: unknown,
    done: (error: Error | null, socket?: Socket) => void,
  ): undefined => {
    const socket = netConnect({ host: hostname, port, lookup, signal });
    const failed = (error: Error): void => done(error);
    socket.once('error', failed);
    socket.once('connect', () => {
      socket.off('error', failed);
      try {
        check(socket.remoteAddress ?? '');
      } catch (error) {
        socket.destroy();
        done(error as Error);
        return;
      }
      done(
        null,
        https
          ? tlsConnect({
              socket,
              host: hostname,
              ...(literal ? {} : { servername: hostname }),
              ALPNProtocols: ['http/1.1'],
            })
          : socket,
      );
    });
    return undefined;
  };

  return new Promise((resolve, reject) => {
    const requestOptions: RequestOptions = {
      method: 'GET',
      headers: { ...options.headers },
      signal,
      createConnection: createConnection as RequestOptions['createConnection'],
    };
    const request = (https ? httpsRequest : httpRequest)(url, requestOptions, resolve);
    request.once('error', reject);
    request.end();
  });
}
