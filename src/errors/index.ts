export { asError } from './as-error.js';
export { HINTGATE_ERROR_CODES, HintgateError, type HintgateErrorCode } from './hintgate-error.js';
