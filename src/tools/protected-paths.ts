import { isAbsolute, normalize, relative, resolve } from 'node:path';
import { isWithin, resolveLoosely, type WorkspacePath } from './resolve-in-workspace.js';

/** Protected paths when none are given: hintgate's state directory in the workspace. */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze(['.hintgate']);

const shownPath = (workspace: string, absolute: string): string => {
  const rel = relative(workspace, absolute);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
};

/**
 * Refuses a write to `target` when it lands inside one of `protectedPaths` (relative to the
 * workspace, or absolute): hintgate's own state and configuration, which a tool could
 * otherwise rewrite to approve anything. Both the path as given and the path with every
 * symbolic link resolved are compared with each protected path, also resolved (a dangling
 * link counts as where it points), so no spelling and no link gets around it.
 *
 * @param workspace Absolute path of the workspace.
 * @param input The path as the model gave it.
 * @param target `input` as {@link resolveInWorkspace} resolved it.
 * @throws Error starting `Refused:` when the target is protected.
 */
export function refuseProtectedPath(
  workspace: string,
  protectedPaths: readonly string[],
  input: string,
  target: WorkspacePath,
): void {
  const lexical = resolve(workspace, input);
  for (const entry of protectedPaths) {
    const place = normalize(resolve(workspace, entry));
    const real = resolveLoosely(place);
    if (
      isWithin(place, lexical) ||
      isWithin(place, target.absolute) ||
      isWithin(real, target.absolute)
    ) {
      const what = shownPath(workspace, place);
      throw new Error(
        `Refused: "${target.relative}" is hintgate's own state/configuration (the protected path "${what}"${real === place ? '' : `, which is ${real}`}), which write_file, edit_file and patch_file do not change. If it really must change, ask the user to change it.`,
      );
    }
  }
}
