import { compileLinearGlob } from '../policy/index.js';

/** Longest glob a model may give, in characters: real ones are a few dozen. */
export const MAX_MODEL_GLOB_CHARS = 1024;

/**
 * Compiles a glob a model gave (`glob`'s pattern, `grep_search`'s file filter) for file
 * paths, as picomatch reads them with `dot: true`, into a matcher that takes linear time
 * (see `compileLinearGlob`): a pattern such as `*a*a*a*a*b` would otherwise freeze the
 * process on a long file name.
 *
 * @param shown The pattern as the model gave it, for the message.
 * @param glob The part to compile (without a literal leading directory).
 * @throws Error saying what is wrong, when the pattern is longer than
 * {@link MAX_MODEL_GLOB_CHARS} (compiling a megabyte of `*a*a...` takes seconds) or cannot
 * be compiled.
 */
export function compileModelGlob(shown: string, glob: string): (path: string) => boolean {
  if (shown.length > MAX_MODEL_GLOB_CHARS) {
    throw new Error(
      `The glob is ${shown.length} characters long; globs of at most ${MAX_MODEL_GLOB_CHARS} characters are accepted. Give a shorter pattern, such as "**/*.ts".`,
    );
  }
  try {
    return compileLinearGlob(glob);
  } catch (error) {
    throw new Error(
      `The glob "${shown}" cannot be read (${(error as Error).message}); write ranges in order, as in "[a-z]", or escape "[" as "\\\\[".`,
    );
  }
}
