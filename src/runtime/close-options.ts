import { HintgateError } from '../errors/index.js';

/**
 * The grace period of a `close(options)` call (`{ graceMs? }`, default 0), checked.
 *
 * @throws HintgateError `invalid_option` for options that are not an object or a graceMs
 *   that is not a number of milliseconds, 0 or more.
 */
export function graceMsOf(options: unknown, where: string): number {
  if (options === undefined) return 0;
  if (typeof options !== 'object' || options === null) {
    throw new HintgateError(
      'invalid_option',
      `${where}: options must be an object, e.g. { graceMs: 5000 }.`,
    );
  }
  const { graceMs = 0 } = options as { graceMs?: unknown };
  if (typeof graceMs !== 'number' || !(graceMs >= 0)) {
    throw new HintgateError(
      'invalid_option',
      `${where}: graceMs must be a number of milliseconds, 0 or more.`,
    );
  }
  return graceMs;
}
