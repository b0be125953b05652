import { type ConfigPath, describe } from '../../config-problems/index.js';
import type { LoadedPrincipal } from './gateway-config.js';
import {
  checkKeys,
  type ReadContext,
  readExpanded,
  readMapping,
  readText,
  report,
} from './read-config-value.js';
import { readScopes } from './read-tool-overrides.js';

const NAME = /^[A-Za-z0-9_.@-]{1,64}$/;
const MIN_TOKEN_LENGTH = 8;

/**
 * Reads `downstream.http.principals`: a list of `{ name, token, scopes }`, the token a
 * `${VAR}` reference (the configuration file keeps no secret). Names and tokens must be
 * unique; a problem names the entry, never its token.
 */
export function readPrincipals(
  value: unknown,
  path: ConfigPath,
  context: ReadContext,
): readonly LoadedPrincipal[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    report(
      context,
      path,
      `is ${describe(value)}; write a list such as [{ name: ci, token: "\${CI_TOKEN}", scopes: [records.read] }].`,
    );
    return undefined;
  }
  const principals: LoadedPrincipal[] = [];
  const names = new Set<string>();
  const tokens = new Set<string>();
  value.forEach((entry: unknown, index) => {
    const at = [...path, index];
    const map = readMapping(entry, at, `{ name: ci, token: "\${CI_TOKEN}" }`, context);
    if (map === undefined) return;
    checkKeys(map, at, { keys: ['name', 'token', 'scopes'], what: 'a principal key' }, context);
    const name = readText(map.name, [...at, 'name'], 'ci', context);
    if (name !== undefined && !NAME.test(name)) {
      report(context, [...at, 'name'], 'must be 1-64 of A-Z a-z 0-9 _ - . @.');
      return;
    }
    if (name !== undefined && names.has(name)) {
      report(context, [...at, 'name'], `names principal "${name}" a second time.`);
      return;
    }
    const token = readExpanded(map.token, [...at, 'token'], `"\${CI_TOKEN}"`, context);
    if (token !== undefined && (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))) {
      report(
        context,
        [...at, 'token'],
        `must be at least ${MIN_TOKEN_LENGTH} characters without spaces (for example from "openssl rand -hex 32", kept in an environment variable).`,
      );
      return;
    }
    if (token !== undefined && tokens.has(token)) {
      report(context, [...at, 'token'], "is another principal's token too; give each its own.");
      return;
    }
    const scopes = readScopes(map.scopes, [...at, 'scopes'], context) ?? [];
    if (name === undefined || token === undefined) {
      if (map.token === undefined) report(context, at, 'has no "token".');
      return;
    }
    names.add(name);
    tokens.add(token);
    principals.push({ name, token, scopes });
  });
  return principals;
}
