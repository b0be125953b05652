/**
 * Codes of {@link HintgateError}: misuse by the programmer or a bad configuration, found
 * early. A tool call's own failure is never one of these; it is a result with `isError`.
 */
export const HINTGATE_ERROR_CODES = [
  'invalid_tool_name',
  'invalid_tool',
  'invalid_schema',
  'invalid_resource_template',
  'invalid_retry',
  'invalid_rate_limit',
  'invalid_option',
  'invalid_calls',
  'invalid_policy',
  'invalid_config',
  'duplicate_tool',
  'unknown_origin',
  'duplicate_origin',
  'registry_closed',
  'invalid_trust_file',
  'trust_write_failed',
  'audit_write_failed',
  'invalid_approvals_file',
  'approvals_locked',
  'approvals_write_failed',
  'invalid_lock_file',
  'lock_file_locked',
  'lock_file_write_failed',
  'lock_file_changed',
  'mcp_connect_failed',
  'runtime_closed',
] as const;

/** One of {@link HINTGATE_ERROR_CODES}. */
export type HintgateErrorCode = (typeof HINTGATE_ERROR_CODES)[number];

/**
 * Thrown for misuse found early: a tool definition that breaks the rules, a bad option, a
 * malformed batch. The message says what to change.
 */
export class HintgateError extends Error {
  /** Stable machine-readable code. */
  readonly code: HintgateErrorCode;

  constructor(code: HintgateErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HintgateError';
    this.code = code;
  }
}
