import type { ConfigPath } from '../../config-problems/index.js';
import type { LoadedPrincipal } from './gateway-config.js';
import { asMapping, type ReadContext, readExpanded, report } from './read-config-value.js';

const MIN_TOKEN_LENGTH = 8;

/**
 * Reads `downstream.http.principals`: a list of `{ name, token, scopes }`, the token a
 * `${VAR}` reference (the configuration file keeps no secret). The schema has checked the
 * shape; this checks that names and tokens are unique and what each token expands to. A
 * problem names the entry, never its token.
 */
export function readPrincipals(
  value: unknown,
  path: ConfigPath,
  context: ReadContext,
): readonly LoadedPrincipal[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const principals: LoadedPrincipal[] = [];
  const names = new Set<string>();
  const tokens = new Set<string>();
  value.forEach((entry: unknown, index) => {
    const at = [...path, index];
    const map = asMapping(entry);
    const name = map?.name;
    if (map === undefined || typeof name !== 'string') return;
    if (names.has(name)) {
      report(context, [...at, 'name'], `names principal "${name}" a second time.`);
      return;
    }
    const token = readExpanded(map.token, [...at, 'token'], context);
    if (token === undefined) return;
    if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
      report(
        context,
        [...at, 'token'],
        `must be at least ${MIN_TOKEN_LENGTH} characters without spaces (for example from "openssl rand -hex 32", kept in an environment variable).`,
      );
      return;
    }
    if (tokens.has(token)) {
      report(context, [...at, 'token'], "is another principal's token too; give each its own.");
      return;
    }
    names.add(name);
    tokens.add(token);
    const scopes = Array.isArray(map.scopes) ? (map.scopes as string[]) : [];
    principals.push({ name, token, scopes: [...scopes] });
  });
  return principals;
}
