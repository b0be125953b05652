import { type EffectiveHints, SPEC_DEFAULT_HINTS, type ToolAnnotations } from './annotations.js';

/**
 * Applies the MCP spec defaults to claimed annotations: an absent `readOnlyHint` is false,
 * `destructiveHint` true, `idempotentHint` false, `openWorldHint` true. A read-only tool is
 * never destructive and always idempotent, whatever it claims for those two hints.
 */
export function effectiveAnnotations(annotations: ToolAnnotations | undefined): EffectiveHints {
  const readOnly = annotations?.readOnlyHint ?? SPEC_DEFAULT_HINTS.readOnlyHint;
  return {
    readOnlyHint: readOnly,
    destructiveHint: readOnly
      ? false
      : (annotations?.destructiveHint ?? SPEC_DEFAULT_HINTS.destructiveHint),
    idempotentHint: readOnly
      ? true
      : (annotations?.idempotentHint ?? SPEC_DEFAULT_HINTS.idempotentHint),
    openWorldHint: annotations?.openWorldHint ?? SPEC_DEFAULT_HINTS.openWorldHint,
  };
}
