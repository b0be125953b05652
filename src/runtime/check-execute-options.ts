import { HintgateError } from '../errors/index.js';
import { AbortScope } from '../schedule/index.js';
import { checkCallerOptions } from './check-caller-options.js';
import type { ExecuteOptions } from './runtime.js';

/**
 * Checks the options of `execute`, `turn` or `decide` (`method` names it in messages):
 * scopes, session, approver, signal and caller.
 *
 * @throws HintgateError `invalid_option` saying what to pass.
 */
export function checkExecuteOptions(
  options: unknown,
  method: string,
): asserts options is ExecuteOptions {
  checkCallerOptions(options, method);
  const { session, approver, signal, caller, onEvent } = options as Record<string, unknown>;
  if (caller !== undefined && (typeof caller !== 'object' || caller === null)) {
    throw new HintgateError(
      'invalid_option',
      `${method}: caller must be an object such as { client: { name, version }, transport }.`,
    );
  }
  if (session !== undefined && session !== null && typeof session !== 'string') {
    throw new HintgateError(
      'invalid_option',
      `${method}: session must be a string, null or absent.`,
    );
  }
  if (approver !== undefined && typeof approver !== 'function') {
    throw new HintgateError(
      'invalid_option',
      `${method}: approver must be a function (request, { signal }) => answer.`,
    );
  }
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw new HintgateError(
      'invalid_option',
      `${method}: onEvent must be a function (event) => void, or absent.`,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal || signal instanceof AbortScope)) {
    throw new HintgateError(
      'invalid_option',
      `${method}: signal must be an AbortSignal (or an AbortScope).`,
    );
  }
}
