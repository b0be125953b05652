import { describe, expect, it } from 'vitest';
import { openRequestState, sealRequestState } from './seal-request-state.js';

const key = Buffer.alloc(32, 7);
const binding = { principal: 'alice', call: 'write_file:sha256:abc' };

describe('sealRequestState', () => {
  it('opens for the same principal and call before it expires', () => {
    const sealed = sealRequestState({ round: 1 }, binding, key, 60_000, 1000);
    const opened = openRequestState(sealed, binding, key, 2000);
    expect(opened).toMatchObject({ payload: { round: 1 }, remainingMs: 59_000 });
    expect('nonce' in opened && opened.nonce.length).toBeGreaterThan(10);
  });

  it('refuses a changed payload, a forged signature and another key', () => {
    const sealed = sealRequestState({ approve: false }, binding, key, 60_000, 1000);
    const [version, body = '', signature] = sealed.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    claims.p = { approve: true };
    const changed = `${version}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    expect(openRequestState(changed, binding, key, 2000)).toEqual({ refused: 'tampered' });
    expect(openRequestState(`${version}.${body}.AAAA`, binding, key, 2000)).toEqual({
      refused: 'tampered',
    });
    expect(openRequestState(sealed, binding, Buffer.alloc(32, 8), 2000)).toEqual({
      refused: 'tampered',
    });
    for (const junk of [undefined, 42, '', 'a.b', 'hg1..', 'x'.repeat(2_000_000)]) {
      expect(openRequestState(junk, binding, key, 2000)).toEqual({ refused: 'tampered' });
    }
  });

  it('refuses it after it expires, and for another principal or call', () => {
    const sealed = sealRequestState({}, binding, key, 1000, 1000);
    expect(openRequestState(sealed, binding, key, 2000)).toEqual({ refused: 'expired' });
    const fresh = sealRequestState({}, binding, key, 60_000, 1000);
    expect(openRequestState(fresh, { ...binding, principal: 'mallory' }, key, 2000)).toEqual({
      refused: 'wrong_binding',
    });
    expect(openRequestState(fresh, { ...binding, call: 'delete_file:x' }, key, 2000)).toEqual({
      refused: 'wrong_binding',
    });
  });
});
