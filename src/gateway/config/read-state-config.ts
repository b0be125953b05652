import { redactUrl } from '../../mcp/client/redact-url.js';
import { isPlainObject } from '../../tool/json-schema.js';
import type { LoadedStateConfig } from './gateway-config.js';
import {
  checkKeys,
  type ReadContext,
  readExpanded,
  readText,
  report,
} from './read-config-value.js';

/** Environment variable the shared sealing key is read from unless `state.keyEnv` names another. */
export const DEFAULT_STATE_KEY_ENV = 'HINTGATE_STATE_KEY';

/** Default `state.keyPrefix`. */
export const DEFAULT_STATE_KEY_PREFIX = 'hintgate:';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const PREFIX = /^[A-Za-z0-9_:.-]{1,64}$/;
const EXAMPLE =
  '"redis://127.0.0.1:6379" or { url: "redis://redis:6379", keyEnv: "HINTGATE_STATE_KEY" }';

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
 * Reads `state`: a Redis URL, or `{ url, keyPrefix, keyEnv }`. Absent or `null`: state stays
 * in the gateway's process. The sealing key itself is never in the file: `keyEnv` names the
 * environment variable it is read from when the gateway starts.
 */
export function readStateConfig(
  value: unknown,
  context: ReadContext,
): LoadedStateConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const url = readExpanded(value, ['state'], EXAMPLE, context);
    const checked = url === undefined ? undefined : checkUrl(url, context);
    return checked === undefined
      ? undefined
      : { url: checked, keyPrefix: DEFAULT_STATE_KEY_PREFIX, keyEnv: DEFAULT_STATE_KEY_ENV };
  }
  if (!isPlainObject(value)) {
    report(context, ['state'], `is ${typeof value}; write ${EXAMPLE}.`);
    return undefined;
  }
  checkKeys(
    value,
    ['state'],
    {
      keys: ['url', 'keyPrefix', 'keyEnv'],
      what: 'a state key',
      synonyms: { prefix: 'keyPrefix', redis: 'url' },
      advice: {
        key: 'is not a state key; keep the sealing key out of the file: name the environment variable that holds it with keyEnv (default HINTGATE_STATE_KEY).',
        requestStateKey:
          'is not a state key; keep the sealing key out of the file: name the environment variable that holds it with keyEnv (default HINTGATE_STATE_KEY).',
      },
    },
    context,
  );
  if (value.url === undefined) {
    report(context, ['state'], `has no "url"; write ${EXAMPLE}.`);
    return undefined;
  }
  const raw = readExpanded(value.url, ['state', 'url'], '"redis://redis:6379"', context);
  const url = raw === undefined ? undefined : checkUrl(raw, context);
  const keyPrefix = readText(value.keyPrefix, ['state', 'keyPrefix'], '"hintgate:"', context);
  if (keyPrefix !== undefined && !PREFIX.test(keyPrefix)) {
    report(
      context,
      ['state', 'keyPrefix'],
      'must be 1-64 characters of A-Z a-z 0-9 _ : . -, such as "hintgate:prod:".',
    );
  }
  const keyEnv = readText(value.keyEnv, ['state', 'keyEnv'], '"HINTGATE_STATE_KEY"', context);
  if (keyEnv !== undefined && !ENV_NAME.test(keyEnv)) {
    report(
      context,
      ['state', 'keyEnv'],
      'must be the name of an environment variable (letters, digits and _, not starting with a digit), such as "HINTGATE_STATE_KEY"; the key itself never goes in the file.',
    );
  }
  if (url === undefined) return undefined;
  return {
    url,
    keyPrefix: keyPrefix ?? DEFAULT_STATE_KEY_PREFIX,
    keyEnv: keyEnv ?? DEFAULT_STATE_KEY_ENV,
  };
}
