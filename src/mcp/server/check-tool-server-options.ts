import { HintgateError } from '../../errors/index.js';
import type { Runtime } from '../../runtime/index.js';
import { isPlainObject } from '../../tool/index.js';
import type { McpToolServerOptions } from './create-mcp-tool-server.js';

/**
 * Checks the options of `createMcpToolServer`.
 *
 * @throws HintgateError `invalid_option` naming the option and what to give.
 */
export const checkToolServerOptions = (options: McpToolServerOptions): void => {
  const raw: unknown = options;
  if (!isPlainObject(raw)) {
    throw new HintgateError('invalid_option', 'createMcpToolServer expects one options object.');
  }
  const runtime = raw.runtime as Partial<Runtime> | undefined;
  if (
    runtime === undefined ||
    typeof runtime.execute !== 'function' ||
    typeof runtime.listTools !== 'function'
  ) {
    throw new HintgateError(
      'invalid_option',
      'createMcpToolServer needs { runtime }: a runtime from createRuntime().',
    );
  }
  if (raw.instructions !== undefined && typeof raw.instructions !== 'function') {
    if (typeof raw.instructions !== 'string' || raw.instructions === '') {
      throw new HintgateError(
        'invalid_option',
        'instructions must be a non-empty string or a function returning one.',
      );
    }
  }
  for (const key of ['name', 'version'] as const) {
    if (raw[key] !== undefined && (typeof raw[key] !== 'string' || raw[key] === '')) {
      throw new HintgateError('invalid_option', `${key} must be a non-empty string.`);
    }
  }
  const key = raw.requestStateKey;
  const keyBytes =
    typeof key === 'string'
      ? Buffer.byteLength(key, 'utf8')
      : key instanceof Uint8Array
        ? key.byteLength
        : undefined;
  if (key !== undefined && (keyBytes === undefined || keyBytes < 32)) {
    throw new HintgateError(
      'invalid_option',
      'requestStateKey must be a string or Uint8Array of at least 32 bytes, e.g. randomBytes(32).',
    );
  }
  const ttl = raw.approvalRoundTtlSeconds;
  if (ttl !== undefined && !(typeof ttl === 'number' && Number.isInteger(ttl) && ttl > 0)) {
    throw new HintgateError(
      'invalid_option',
      'approvalRoundTtlSeconds must be a positive whole number of seconds.',
    );
  }
  if (raw.useRoundOnce !== undefined && typeof raw.useRoundOnce !== 'function') {
    throw new HintgateError(
      'invalid_option',
      'useRoundOnce must be a function (round, ttlMs) => Promise<boolean>, such as the useOnce of a shared state.',
    );
  }
  if (raw.onError !== undefined && typeof raw.onError !== 'function') {
    throw new HintgateError('invalid_option', 'onError must be a function (error) => void.');
  }
  if (raw.unapprovableAdvice !== undefined && typeof raw.unapprovableAdvice !== 'function') {
    throw new HintgateError(
      'invalid_option',
      'unapprovableAdvice must be a function (request) => string | undefined.',
    );
  }
  const sources = {
    resources: ['list', 'listTemplates', 'read', 'subscribe', 'unsubscribe', 'onEvent'],
    prompts: ['list', 'get', 'onListChanged'],
    logging: ['setLevel', 'onMessage'],
    telemetry: ['call', 'upstream'],
  } as const;
  for (const [key, methods] of Object.entries(sources)) {
    const source = raw[key];
    if (source === undefined) continue;
    const missing = methods.filter(
      (method) => typeof (source as Record<string, unknown> | null)?.[method] !== 'function',
    );
    if (missing.length > 0) {
      throw new HintgateError(
        'invalid_option',
        `${key} must be an object with the methods ${methods.join(', ')}; missing ${missing.join(', ')}.`,
      );
    }
  }
};
