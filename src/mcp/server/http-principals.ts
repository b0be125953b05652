import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { HintgateError } from '../../errors/index.js';
import { hasBearerToken } from './http-security.js';

/** One caller of the HTTP endpoint: a bearer token and who holds it. */
export interface HttpPrincipal {
  /**
   * Who holds the token, as audit records name the caller (`caller.principal`); 1-64 of
   * `A-Z a-z 0-9 _ - . @`. Never the token.
   */
  readonly name: string;
  /** The bearer token, at least 8 characters; never logged. */
  readonly token: string;
  /**
   * Scopes the token grants, added to the server's own: the caller sees and may call the
   * tools whose scopes it all holds. Default none.
   */
  readonly scopes?: readonly string[];
}

const NAME = /^[A-Za-z0-9_.@-]{1,64}$/;

/**
 * Checks a list of principals: names valid and unique, tokens at least 8 characters and
 * unique, scopes lists of non-empty strings.
 *
 * @throws HintgateError `invalid_option` naming the entry and what to fix (never its token).
 */
export function checkHttpPrincipals(value: unknown): readonly HttpPrincipal[] {
  if (!Array.isArray(value)) {
    throw new HintgateError(
      'invalid_option',
      'principals must be a list of { name, token, scopes? }, e.g. [{ name: "ci", token: "...", scopes: ["records.read"] }].',
    );
  }
  const names = new Set<string>();
  const tokens = new Set<string>();
  return value.map((entry: unknown, index) => {
    const where = `principals[${index}]`;
    const p = entry as Partial<HttpPrincipal> | null;
    if (typeof p !== 'object' || p === null) {
      throw new HintgateError('invalid_option', `${where} must be { name, token, scopes? }.`);
    }
    if (typeof p.name !== 'string' || !NAME.test(p.name)) {
      throw new HintgateError(
        'invalid_option',
        `${where}.name must be 1-64 of A-Z a-z 0-9 _ - . @, naming who holds the token.`,
      );
    }
    if (names.has(p.name)) {
      throw new HintgateError('invalid_option', `${where}: principal "${p.name}" is named twice.`);
    }
    if (typeof p.token !== 'string' || p.token.length < 8 || /\s/.test(p.token)) {
      throw new HintgateError(
        'invalid_option',
        `${where} ("${p.name}"): token must be at least 8 characters without spaces.`,
      );
    }
    if (tokens.has(p.token)) {
      throw new HintgateError(
        'invalid_option',
        `${where} ("${p.name}"): its token is another principal's too; give each its own.`,
      );
    }
    if (
      p.scopes !== undefined &&
      !(Array.isArray(p.scopes) && p.scopes.every((s) => typeof s === 'string' && s !== ''))
    ) {
      throw new HintgateError(
        'invalid_option',
        `${where} ("${p.name}"): scopes must be a list of scope names such as ["records.read"].`,
      );
    }
    names.add(p.name);
    tokens.add(p.token);
    return Object.freeze({
      name: p.name,
      token: p.token,
      scopes: Object.freeze([...(p.scopes ?? [])]),
    });
  });
}

/**
 * The principal whose token `req` carries (`Authorization: Bearer`), as the SDK's
 * `authInfo` (the token itself left out, so that it never reaches tool contexts or logs),
 * or undefined. Every token is compared, in constant time each, whichever matches.
 */
export function authenticate(
  req: IncomingMessage,
  principals: readonly HttpPrincipal[],
): AuthInfo | undefined {
  let found: HttpPrincipal | undefined;
  for (const principal of principals) {
    if (hasBearerToken(req, principal.token) && found === undefined) found = principal;
  }
  if (found === undefined) return undefined;
  return { token: 'bearer', clientId: found.name, scopes: [...(found.scopes ?? [])] };
}
