import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolAnnotations } from './annotations.js';
import { classify } from './classify.js';

const STATES = [true, false, undefined] as const;

/** Any claimed annotations, each hint true, false or absent. */
const annotationsArbitrary: fc.Arbitrary<ToolAnnotations> = fc.record(
  {
    readOnlyHint: fc.boolean(),
    destructiveHint: fc.boolean(),
    idempotentHint: fc.boolean(),
    openWorldHint: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('classify', () => {
  it('treats a tool without annotations as destructive (spec defaults)', () => {
    expect(classify(undefined)).toBe('destructive');
    expect(classify({})).toBe('destructive');
  });

  it('classifies [readOnly, destructive] over all 3x3x3x3 combinations', () => {
    let seen = 0;
    for (const readOnlyHint of STATES)
      for (const destructiveHint of STATES)
        for (const idempotentHint of STATES)
          for (const openWorldHint of STATES) {
            const claimed: ToolAnnotations = {
              ...(readOnlyHint === undefined ? {} : { readOnlyHint }),
              ...(destructiveHint === undefined ? {} : { destructiveHint }),
              ...(idempotentHint === undefined ? {} : { idempotentHint }),
              ...(openWorldHint === undefined ? {} : { openWorldHint }),
            };
            const expected =
              readOnlyHint === true ? 'read' : destructiveHint === false ? 'write' : 'destructive';
            expect(classify(claimed), JSON.stringify(claimed)).toBe(expected);
            seen += 1;
          }
    expect(seen).toBe(81);
  });

  it('read iff readOnlyHint is true; write iff not read-only and destructiveHint is false', () => {
    fc.assert(
      fc.property(annotationsArbitrary, (claimed) => {
        const kind = classify(claimed);
        expect(kind === 'read').toBe(claimed.readOnlyHint === true);
        expect(kind === 'write').toBe(
          claimed.readOnlyHint !== true && claimed.destructiveHint === false,
        );
        expect(kind === 'destructive').toBe(
          claimed.readOnlyHint !== true && claimed.destructiveHint !== false,
        );
      }),
    );
  });

  it('never depends on idempotentHint or openWorldHint', () => {
    fc.assert(
      fc.property(annotationsArbitrary, fc.boolean(), fc.boolean(), (claimed, idem, open) => {
        expect(classify({ ...claimed, idempotentHint: idem, openWorldHint: open })).toBe(
          classify(claimed),
        );
      }),
    );
  });

  it('accepts effective hints as well as claimed annotations', () => {
    expect(
      classify({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      }),
    ).toBe('write');
  });
});
