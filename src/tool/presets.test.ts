import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from './presets.js';

describe('presets', () => {
  it('READ_ONLY is exactly the seed value', () => {
    expect(READ_ONLY).toStrictEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('WRITE is exactly the seed value (additive, idempotent)', () => {
    expect(WRITE).toStrictEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('DESTRUCTIVE is exactly the seed value', () => {
    expect(DESTRUCTIVE).toStrictEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  it('are frozen, so one tool cannot change the hints of every tool that shares a preset', () => {
    for (const preset of [READ_ONLY, WRITE, DESTRUCTIVE]) {
      expect(Object.isFrozen(preset)).toBe(true);
    }
  });

  it('classify as read, write and destructive', () => {
    expect([READ_ONLY, WRITE, DESTRUCTIVE].map(classify)).toStrictEqual([
      'read',
      'write',
      'destructive',
    ]);
  });
});
