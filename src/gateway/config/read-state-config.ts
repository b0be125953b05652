// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { redactUrl } from '../../mcp/early.js';
import { isPlainObject } from '../../tool/index.js';
import type { LoadedStateConfig } from './gateway-config.js';
import { type ReadContext, readExpanded, report } from './read-config-value.js';

/** Environment variable the shared sealing key is read from unless `state.keyEnv` names another. */
export const DEFAULT_STATE_KEY_ENV = 'HINTGATE_STATE_SECRET';

/** Shortest sealing secret, in bytes, as `createMcpToolServer` requires. */
export const MIN_SECRET_BYTES = 32;

/** Default `state.keyPrefix`. */
export const DEFAULT_STATE_KEY_PREFIX = 'hintgate:';

const EXAMPLE =
  '"redis://127.0.0.1:6379" or { url: "redis://redis:6379", secret: "${HINTGATE_STATE_SECRET}" }';

const checkUrl = (url: string, context: ReadContext): string | undefined => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    report(context, ['state'], `"${redactUrl(url)}" is not a URL; write it as ${EXAMPLE}.`);
    return undefined;
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    report(
      context,
      ['state'],
      `"${redactUrl(url)}" is not a Redis URL (redis:// or rediss:// for TLS); write it as ${EXAMPLE}, or leave "state" out to keep state in the gateway's process.`,
    );
    return undefined;
  }
  return url;
};

/**
 * Reads `state`: a Redis URL, or `{ url, secret, keyEnv, keyPrefix, leaseMs }`. Absent or `null`:
 * state stays in the gateway's process. The sealing secret itself is never in the file:
 * `secret` is a `${VAR}` reference, or `keyEnv` names the environment variable it is read
 * from when the gateway starts (default `HINTGATE_STATE_SECRET`). The schema has checked
 * keys, types and patterns; this checks the URL and the secret once expanded.
 */
export function readStateConfig(
  value: unknown,
  context: ReadContext,
): LoadedStateConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const url = readExpanded(value, ['state'], context);
    const checked = url === undefined ? undefined : checkUrl(url, context);
    return checked === undefined
      ? undefined
      : { url: checked, keyPrefix: DEFAULT_STATE_KEY_PREFIX, keyEnv: DEFAULT_STATE_KEY_ENV };
  }
  if (!isPlainObject(value)) return undefined;
  const raw = readExpanded(value.url, ['state', 'url'], context);
  const url = raw === undefined ? undefined : checkUrl(raw, context);
  const keyPrefix = typeof value.keyPrefix === 'string' ? value.keyPrefix : undefined;
  const keyEnv = typeof value.keyEnv === 'string' ? value.keyEnv : undefined;
  // The schema has checked it: an integer of ms within the bounds it states.
  const leaseMs = typeof value.leaseMs === 'number' ? value.leaseMs : undefined;
  let secret: string | undefined;
  if (value.secret !== undefined) {
    secret = readExpanded(value.secret, ['state', 'secret'], context);
    if (secret !== undefined && Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
      report(
        context,
        ['state', 'secret'],
        `is ${Buffer.byteLength(secret, 'utf8')} bytes long; use at least ${MIN_SECRET_BYTES}, the same on every replica (for example from "openssl rand -hex 32").`,
      );
      secret = undefined;
    }
    if (keyEnv !== undefined) {
      report(context, ['state', 'keyEnv'], 'and state.secret are both given; give one of them.');
    }
  }
  if (url === undefined) return undefined;
  return {
    url,
    keyPrefix: keyPrefix ?? DEFAULT_STATE_KEY_PREFIX,
    keyEnv: keyEnv ?? DEFAULT_STATE_KEY_ENV,
    ...(secret === undefined ? {} : { secret }),
    ...(leaseMs === undefined ? {} : { leaseMs }),
  };
}
