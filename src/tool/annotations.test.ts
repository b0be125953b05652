import { describe, expect, it } from 'vitest';
import { HINT_NAMES, SPEC_DEFAULT_HINTS } from './annotations.js';

describe('SPEC_DEFAULT_HINTS', () => {
  it('holds the MCP spec defaults of a tool that claims nothing', () => {
    expect(SPEC_DEFAULT_HINTS).toStrictEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('is frozen, so no caller can change the defaults of everyone else', () => {
    expect(Object.isFrozen(SPEC_DEFAULT_HINTS)).toBe(true);
  });
});

describe('HINT_NAMES', () => {
  it('lists the four hints in spec order', () => {
    expect(HINT_NAMES).toStrictEqual([
      'readOnlyHint',
      'destructiveHint',
      'idempotentHint',
      'openWorldHint',
    ]);
  });

  it('names exactly the keys of the spec defaults', () => {
    expect([...HINT_NAMES].sort()).toStrictEqual(Object.keys(SPEC_DEFAULT_HINTS).sort());
  });
});
