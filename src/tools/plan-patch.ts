import { parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';

/** What a patch does to one file. */
export type FilePatchKind = 'modify' | 'create' | 'delete' | 'rename' | 'copy';

/** One file's part of a unified diff, as {@link planPatch} read it. */
export interface FilePatch {
  /** 1-based position of this part in the patch, for messages. */
  readonly position: number;
  /** What it does to the file. */
  readonly kind: FilePatchKind;
  /** Path it reads, as written in the diff with git's `a/` taken off; absent for `create`. */
  readonly from?: string;
  /** Path it writes, with git's `b/` taken off; absent for `delete`. */
  readonly to?: string;
  /** The hunks, in file order. */
  readonly hunks: readonly StructuredPatchHunk[];
}

/** Longest patch read, in characters: larger ones are refused before parsing. */
export const MAX_PATCH_CHARS = 4 * 1024 * 1024;
/** Most file parts of one patch (each is resolved, with a few `lstat`s, to key the call). */
export const MAX_PATCH_FILES = 1000;

const DEV_NULL = '/dev/null';

/** The error for a patch that cannot be read, with how to write one that can. */
const unreadable = (why: string): Error =>
  new Error(
    `The patch is not a unified diff patch_file can read: ${why}. Write each file's part as "--- a/path" and "+++ b/path" lines followed by "@@ -start,count +start,count @@" hunks (as git diff prints them); use "--- /dev/null" to create a file and "+++ /dev/null" to delete one. Nothing was changed.`,
  );

/** Whether a file name stands for "no file" (`/dev/null`, or none given). */
const isNone = (name: string | undefined): boolean => name === undefined || name === DEV_NULL;

/**
 * The two paths of a part with git's `a/` and `b/` prefixes taken off, when the part uses
 * them (as git and most tools write diffs); otherwise as written.
 */
const stripPrefixes = (
  oldName: string | undefined,
  newName: string | undefined,
): { readonly from: string | undefined; readonly to: string | undefined } => {
  const from = isNone(oldName) ? undefined : oldName;
  const to = isNone(newName) ? undefined : newName;
  const prefixed =
    (from === undefined || from.startsWith('a/')) &&
    (to === undefined || to.startsWith('b/')) &&
    (from !== undefined || to !== undefined);
  return prefixed ? { from: from?.slice(2), to: to?.slice(2) } : { from: from, to: to };
};

/** The parts of `patch`, each with its kind, or an error saying what is wrong. */
const readPart = (part: StructuredPatch, position: number): FilePatch => {
  const where = `file ${position} of the patch`;
  if (part.isBinary) {
    throw unreadable(
      `${where} is a binary patch; patch_file changes text files only (use run_command for binary files)`,
    );
  }
  if (part.oldFileName === undefined && part.newFileName === undefined) {
    throw unreadable(`${where} has no "---" and "+++" file header lines`);
  }
  const { from, to } = stripPrefixes(part.oldFileName, part.newFileName);
  if (from === '' || to === '') throw unreadable(`${where} names an empty path`);
  const hunks = part.hunks;
  if (from === undefined && to === undefined) {
    throw unreadable(`${where} has /dev/null on both sides`);
  }
  if (from === undefined || part.isCreate === true) {
    if (to === undefined) throw unreadable(`${where} creates a file but names none`);
    return { position, kind: 'create', to, hunks };
  }
  if (to === undefined || part.isDelete === true) {
    return { position, kind: 'delete', from, hunks };
  }
  if (from !== to) {
    return { position, kind: part.isCopy === true ? 'copy' : 'rename', from, to, hunks };
  }
  if (hunks.length === 0) {
    throw unreadable(
      `${where} (${to}) has no hunks${part.oldMode !== undefined || part.newMode !== undefined ? '; mode changes are not applied by patch_file (use run_command with chmod)' : ''}`,
    );
  }
  return { position, kind: 'modify', from, to, hunks };
};

/**
 * Reads a unified diff (one or several files, as `git diff` or `diff -u` print it) into
 * its file parts, parsed by jsdiff's `parsePatch`: which files it reads and writes, and
 * their hunks. Resource keys come from here, before anything runs.
 *
 * @throws Error with a message for the model when the patch is empty, longer than
 * {@link MAX_PATCH_CHARS} or of more than {@link MAX_PATCH_FILES} files, malformed (hunk line counts that do not add up, a hunk without
 * file headers), or a binary or mode-only change.
 */
export function planPatch(patch: string): FilePatch[] {
  if (patch.length > MAX_PATCH_CHARS) {
    throw unreadable(
      `it is ${patch.length} characters long, more than ${MAX_PATCH_CHARS}; split it into several calls`,
    );
  }
  let parts: StructuredPatch[];
  try {
    parts = parsePatch(patch);
  } catch (error) {
    throw unreadable(
      `${(error as Error).message} (a hunk's "@@ -start,count +start,count @@" counts must equal its number of context and "-" lines, and of context and "+" lines)`,
    );
  }
  const files = parts
    .filter(
      (part) =>
        !(
          part.oldFileName === undefined &&
          part.newFileName === undefined &&
          part.hunks.length === 0
        ),
    )
    .map((part, index) => readPart(part, index + 1));
  if (files.length === 0) throw unreadable('it changes no file');
  if (files.length > MAX_PATCH_FILES) {
    throw unreadable(
      `it has ${files.length} file parts, more than ${MAX_PATCH_FILES}; split it into several calls`,
    );
  }
  return files;
}

/** The workspace paths a patch reads or writes, each once, in patch order. */
export function patchPaths(files: readonly FilePatch[]): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    if (file.from !== undefined) paths.add(file.from);
    if (file.to !== undefined) paths.add(file.to);
  }
  return [...paths];
}
