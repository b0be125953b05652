import { describe } from '../config-problems/index.js';
import { HintgateError } from '../errors/index.js';
import type { ApprovalAnswer } from '../policy/index.js';
import { isPlainObject } from '../tool/index.js';

const REMEMBER = ['once', 'session', 'always'];

/**
 * Checks an approval answer given beforehand (`Turn.call`'s `approval`): `{ decision:
 * 'allow' | 'deny', remember?, reason?, asked? }`.
 *
 * @throws HintgateError `invalid_option` saying what to pass.
 */
export function checkApprovalAnswer(
  answer: unknown,
  where: string,
): asserts answer is ApprovalAnswer {
  const shape =
    "{ decision: 'allow' | 'deny', remember?: 'once' | 'session' | 'always', reason?: string }";
  if (!isPlainObject(answer)) {
    throw new HintgateError('invalid_option', `${where} must be an approval answer ${shape}.`);
  }
  const { decision, remember, reason, asked } = answer;
  if (decision !== 'allow' && decision !== 'deny') {
    throw new HintgateError(
      'invalid_option',
      `${where}.decision must be 'allow' or 'deny', not ${describe(decision)}.`,
    );
  }
  if (remember !== undefined && !REMEMBER.includes(remember as string)) {
    throw new HintgateError(
      'invalid_option',
      `${where}.remember must be 'once', 'session' or 'always', not ${describe(remember)}.`,
    );
  }
  if (reason !== undefined && typeof reason !== 'string') {
    throw new HintgateError('invalid_option', `${where}.reason must be a string.`);
  }
  if (asked !== undefined && typeof asked !== 'boolean') {
    throw new HintgateError('invalid_option', `${where}.asked must be true or false.`);
  }
}
