import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** What a sealed request state is bound to: it opens only for the same principal and call. */
export interface SealBinding {
  /** Who the round belongs to (a token's principal, or the session's client). */
  readonly principal: string;
  /** The call the round is about: its tool and a digest of its arguments. */
  readonly call: string;
}

/** A request state that opened: what was sealed, and the nonce to spend once. */
export interface OpenedState {
  readonly payload: unknown;
  /** Unique per seal; spend it with `SharedState.useOnce` so the state cannot be replayed. */
  readonly nonce: string;
  /** Milliseconds until the state expires. */
  readonly remainingMs: number;
}

const VERSION = 'hg1';

const mac = (key: Uint8Array, body: string): Buffer =>
  createHmac('sha256', key).update(`${VERSION}.${body}`).digest();

/**
 * Seals `payload` into an opaque string a client carries back (the `requestState` of an
 * `input_required` round): HMAC-SHA256 under `key`, bound to `binding` and valid for
 * `ttlMs`. The payload is signed, not encrypted; put nothing secret in it.
 */
export function sealRequestState(
  payload: unknown,
  binding: SealBinding,
  key: Uint8Array,
  ttlMs: number,
  now: number = Date.now(),
): string {
  const body = Buffer.from(
    JSON.stringify({
      p: payload,
      sub: binding.principal,
      call: binding.call,
      exp: now + ttlMs,
      n: randomUUID(),
    }),
  ).toString('base64url');
  return `${VERSION}.${body}.${mac(key, body).toString('base64url')}`;
}

/**
 * Opens a sealed request state, or says why it cannot be trusted: not one of ours or
 * changed (`tampered`), past its time (`expired`), or sealed for another principal or call
 * (`wrong_binding`). Never throws, whatever the string.
 */
export function openRequestState(
  sealed: unknown,
  binding: SealBinding,
  key: Uint8Array,
  now: number = Date.now(),
): OpenedState | { readonly refused: 'tampered' | 'expired' | 'wrong_binding' } {
  if (typeof sealed !== 'string' || sealed.length > 1_000_000) return { refused: 'tampered' };
  const parts = sealed.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { refused: 'tampered' };
  const [, body = '', signature = ''] = parts;
  const expected = mac(key, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { refused: 'tampered' };
  }
  let claims: { p?: unknown; sub?: unknown; call?: unknown; exp?: unknown; n?: unknown };
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return { refused: 'tampered' };
  }
  if (typeof claims.exp !== 'number' || typeof claims.n !== 'string') {
    return { refused: 'tampered' };
  }
  if (claims.exp <= now) return { refused: 'expired' };
  if (claims.sub !== binding.principal || claims.call !== binding.call) {
    return { refused: 'wrong_binding' };
  }
  return { payload: claims.p, nonce: claims.n, remainingMs: claims.exp - now };
}
