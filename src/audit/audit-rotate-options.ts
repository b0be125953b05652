import { HintgateError } from '../errors/index.js';

/**
 * When the JSONL audit sink starts a new file. Rotation happens only between whole lines:
 * a line is never split across two files, and a new file starts with a whole event. The
 * old file becomes `PATH.1`, the one before `PATH.2`, and so on up to `PATH.keep`; older
 * ones are replaced.
 */
export interface AuditRotateOptions {
  /**
   * Rotate before an append that would take the file past this many bytes (at least 1024).
   * A single event larger than that gets a file of its own. Default: no size limit.
   */
  readonly maxBytes?: number;
  /**
   * Rotate at the first append of each new UTC day, so that a file holds the events of one
   * day (by the time they were appended; a file left from an earlier day, by its last
   * change, is rotated at the first append). Default false.
   */
  readonly daily?: boolean;
  /** How many rotated files to keep (`PATH.1` ... `PATH.keep`), 1 to 1000. Default 5. */
  readonly keep?: number;
}

/** {@link AuditRotateOptions} checked, with defaults. */
export interface ResolvedAuditRotation {
  readonly maxBytes: number | undefined;
  readonly daily: boolean;
  readonly keep: number;
}

/** Default of {@link AuditRotateOptions.keep}. */
export const DEFAULT_AUDIT_ROTATE_KEEP = 5;

/** Smallest {@link AuditRotateOptions.maxBytes}. */
export const MIN_AUDIT_ROTATE_BYTES = 1024;

const MAX_KEEP = 1000;

const invalid = (text: string): HintgateError =>
  new HintgateError('invalid_option', `createJsonlAuditSink: rotate.${text}`);

/**
 * Checks `rotate` of the JSONL sink's options; `undefined` when it asks for no rotation.
 * Throws HintgateError `invalid_option` saying what to fix.
 */
export function resolveAuditRotation(rotate: unknown): ResolvedAuditRotation | undefined {
  if (rotate === undefined) return undefined;
  if (typeof rotate !== 'object' || rotate === null || Array.isArray(rotate)) {
    throw new HintgateError(
      'invalid_option',
      `createJsonlAuditSink: rotate must be an object such as { maxBytes: 10_000_000, keep: 5 } or { daily: true }, not ${JSON.stringify(rotate) ?? String(rotate)}.`,
    );
  }
  const { maxBytes, daily, keep } = rotate as Record<string, unknown>;
  for (const key of Object.keys(rotate)) {
    if (key !== 'maxBytes' && key !== 'daily' && key !== 'keep') {
      throw invalid(`${key} is not an option; use maxBytes, daily and keep.`);
    }
  }
  if (
    maxBytes !== undefined &&
    (typeof maxBytes !== 'number' ||
      !Number.isSafeInteger(maxBytes) ||
      maxBytes < MIN_AUDIT_ROTATE_BYTES)
  ) {
    throw invalid(
      `maxBytes must be a whole number of bytes, at least ${MIN_AUDIT_ROTATE_BYTES}, not ${String(maxBytes)}.`,
    );
  }
  if (daily !== undefined && typeof daily !== 'boolean') {
    throw invalid(`daily must be true or false, not ${JSON.stringify(daily) ?? String(daily)}.`);
  }
  if (
    keep !== undefined &&
    (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 1 || keep > MAX_KEEP)
  ) {
    throw invalid(`keep must be a whole number from 1 to ${MAX_KEEP}, not ${String(keep)}.`);
  }
  if (maxBytes === undefined && daily !== true) {
    throw invalid('needs maxBytes, daily: true, or both: say when to start a new file.');
  }
  return {
    maxBytes: maxBytes as number | undefined,
    daily: daily === true,
    keep: (keep as number | undefined) ?? DEFAULT_AUDIT_ROTATE_KEEP,
  };
}
