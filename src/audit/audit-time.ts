/** The last millisecond {@link auditTime} was asked for, and its text. */
let lastMs = Number.NaN;
let lastText = '';

/**
 * The `time` of an audit event: `new Date(now).toISOString()`, made once per millisecond.
 * A call writes two or more events within the same millisecond, and making the text is a
 * good part of building each.
 *
 * @param now Milliseconds since the epoch. Default `Date.now()`.
 */
export function auditTime(now: number = Date.now()): string {
  if (now !== lastMs) {
    lastText = new Date(now).toISOString();
    lastMs = now;
  }
  return lastText;
}
