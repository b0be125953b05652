import type { EffectiveHints, ToolAnnotations } from './annotations.js';
import { effectiveAnnotations } from './effective-annotations.js';

/** The class of a call, which decides its locks and whether it needs approval. */
export type ToolClass = 'read' | 'write' | 'destructive';

/**
 * Classifies claimed annotations (spec defaults applied) or effective hints: `read` when
 * read-only, `destructive` when the effective `destructiveHint` is true, else `write`.
 */
export function classify(annotations: ToolAnnotations | EffectiveHints | undefined): ToolClass {
  const hints = effectiveAnnotations(annotations);
  if (hints.readOnlyHint) return 'read';
  return hints.destructiveHint ? 'destructive' : 'write';
}
