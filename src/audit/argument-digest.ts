import * as crypto from 'node:crypto';

/** Field names whose values are replaced by `[redacted]` in audit records. */
export const SECRET_FIELD =
  /pass(word|phrase)?|secret|token|api[-_]?key|auth|cookie|credential|private[-_]?key|session/i;

/** `value.toJSON()` when it has one (a `Date`), as `JSON.stringify` would use it. */
const jsonForm = (value: unknown): unknown =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ? (value as { toJSON: () => unknown }).toJSON()
    : value;

const canonical = (input: unknown): unknown => {
  const value = jsonForm(input);
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    // No prototype: a `__proto__` key (JSON.parse makes it an own key) must be kept, not set
    // the prototype, or two different values would give the same text.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      sorted[key] = canonical((value as Record<string, unknown>)[key]);
    }
    return sorted;
  }
  return typeof value === 'bigint' ? String(value) : value;
};

/** JSON with object keys sorted, so equal values give equal text (`toJSON` is honoured). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? 'null';
}

/**
 * Hex SHA-256 of a text: `crypto.hash` (Node 20.12 and later), one call without the `Hash`
 * object `createHash` makes, which costs a gateway call about as much as the rest of its
 * digest; `createHash` on the Node 20 releases before it.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** The digest of a call without arguments (`{}`), the most common one, hashed once. */
const NO_ARGUMENTS_DIGEST = `sha256:${sha256Hex('{}')}`;

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function argumentDigest(value: unknown): string {
  const text = canonicalJson(value);
  return text === '{}' ? NO_ARGUMENTS_DIGEST : `sha256:${sha256Hex(text)}`;
}

/**
 * A deep copy of `value` with the values of secret-looking fields replaced. Values with a
 * `toJSON` method (a `Date`) are copied as their JSON form.
 */
export function redactSecrets(
  input: unknown,
  isSecret: (field: string) => boolean = (f) => SECRET_FIELD.test(f),
): unknown {
  const value = jsonForm(input);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, isSecret));
  if (typeof value === 'object' && value !== null) {
    // fromEntries keeps a `__proto__` key as data, as the call's arguments have it.
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [
        key,
        isSecret(key) ? '[redacted]' : redactSecrets(field, isSecret),
      ]),
    );
  }
  return value;
}
