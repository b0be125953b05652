import { describe, expect, it } from 'vitest';
import type { ToolAnnotations } from './annotations.js';
import { effectiveAnnotations } from './effective-annotations.js';

const STATES = [true, false, undefined] as const;

/** Every combination of the four hints in three states (absent keys left out). */
const allCombinations = (): ToolAnnotations[] => {
  const out: ToolAnnotations[] = [];
  for (const readOnlyHint of STATES)
    for (const destructiveHint of STATES)
      for (const idempotentHint of STATES)
        for (const openWorldHint of STATES) {
          out.push({
            ...(readOnlyHint === undefined ? {} : { readOnlyHint }),
            ...(destructiveHint === undefined ? {} : { destructiveHint }),
            ...(idempotentHint === undefined ? {} : { idempotentHint }),
            ...(openWorldHint === undefined ? {} : { openWorldHint }),
          });
        }
  return out;
};

describe('effectiveAnnotations', () => {
  it('applies the spec defaults to absent annotations', () => {
    expect(effectiveAnnotations(undefined)).toStrictEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(effectiveAnnotations({})).toStrictEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('ignores the title', () => {
    expect(effectiveAnnotations({ title: 'Delete' })).toStrictEqual(effectiveAnnotations({}));
  });

  it('keeps claimed false values of a non-read-only tool (false is not absent)', () => {
    expect(
      effectiveAnnotations({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      }),
    ).toStrictEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('makes a read-only tool non-destructive and idempotent whatever it claims', () => {
    expect(
      effectiveAnnotations({ readOnlyHint: true, destructiveHint: true, idempotentHint: false }),
    ).toStrictEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });

  it('gives every hint a boolean and follows the spec table for all 81 combinations', () => {
    const combinations = allCombinations();
    expect(combinations).toHaveLength(81);
    for (const claimed of combinations) {
      const hints = effectiveAnnotations(claimed);
      const readOnly = claimed.readOnlyHint === true;
      expect(hints, JSON.stringify(claimed)).toStrictEqual({
        readOnlyHint: readOnly,
        destructiveHint: readOnly ? false : claimed.destructiveHint !== false,
        idempotentHint: readOnly ? true : claimed.idempotentHint === true,
        openWorldHint: claimed.openWorldHint !== false,
      });
    }
  });

  it('does not change the annotations it reads', () => {
    const claimed = { readOnlyHint: true, destructiveHint: true };
    effectiveAnnotations(claimed);
    expect(claimed).toStrictEqual({ readOnlyHint: true, destructiveHint: true });
  });
});
