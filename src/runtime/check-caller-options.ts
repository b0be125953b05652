import { HintgateError } from '../errors/index.js';

/**
 * Checks the options object of a runtime method: an object, with scopes a list of names.
 *
 * @throws HintgateError `invalid_option` saying what to pass.
 */
export function checkCallerOptions(options: unknown, method: string): void {
  if (typeof options !== 'object' || options === null) {
    throw new HintgateError(
      'invalid_option',
      `${method}: options must be an object, e.g. { scopes: ['customers.read'] }.`,
    );
  }
  const { scopes } = options as { scopes?: unknown };
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  ) {
    throw new HintgateError(
      'invalid_option',
      `${method}: scopes must be a list of scope names such as ["customers.read"], not ${JSON.stringify(scopes)}.`,
    );
  }
}
