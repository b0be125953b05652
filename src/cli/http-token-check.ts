import { isLoopbackHost } from '../mcp/early.js';

/** Shortest bearer token accepted. */
export const MIN_TOKEN_LENGTH = 8;

/** What {@link httpTokenCheck} says of serving HTTP on a host with or without a token. */
export type HttpTokenVerdict =
  | { readonly ok: true; readonly warning?: string }
  | { readonly ok: false; readonly message: string };

/**
 * Whether `serve --http` / `gateway --http` may start on `host` with the token it has: with a
 * token, yes; without one on a loopback address, yes, with a warning (every local program
 * can call the tools); without one on any other address, only with `--insecure-no-token`
 * (then with a warning), since anyone who reaches the port could call the tools.
 */
export function httpTokenCheck(options: {
  readonly host: string;
  readonly token: string | undefined;
  readonly insecureNoToken: boolean;
}): HttpTokenVerdict {
  const { host, token, insecureNoToken } = options;
  if (token !== undefined) return { ok: true };
  if (isLoopbackHost(host)) {
    return {
      ok: true,
      warning: `no token is set: any program on this machine can call the tools; set HINTGATE_TOKEN (or --token) to require "Authorization: Bearer TOKEN".`,
    };
  }
  if (!insecureNoToken) {
    return {
      ok: false,
      message: `${host} may be reachable from other machines and no token is set, so anyone who reaches it could call the tools. Set one (HINTGATE_TOKEN, or --token; at least 8 characters), or add --insecure-no-token to serve without one anyway.`,
    };
  }
  return {
    ok: true,
    warning: `warning: ${host} may be reachable from other machines and no token is set (--insecure-no-token); anyone who reaches it can call the tools.`,
  };
}
