import { describeFsErrorCode, fsErrorCode } from '../fs/index.js';

const MESSAGES: Readonly<Record<string, (path: string) => string>> = {
  ENOENT: (path) => `"${path}" does not exist. Check the path with list_directory or glob.`,
  ENOTDIR: (path) => `A part of "${path}" is a file, not a directory.`,
  EISDIR: (path) => `"${path}" is a directory, not a file; list it with list_directory.`,
  EACCES: (path) => `Permission denied for "${path}".`,
  EPERM: (path) => `The operation is not permitted on "${path}".`,
  EEXIST: (path) => `"${path}" already exists as something that is not a directory.`,
  ENOSPC: () => 'The disk is full.',
  EROFS: (path) => `"${path}" is on a read-only file system.`,
  ELOOP: (path) =>
    `"${path}" runs into a loop of symbolic links (a link that points back to itself, directly or through others).`,
  ENAMETOOLONG: (path) => `"${path}", or a part of it, is too long for the file system.`,
};

/**
 * Turns a Node file-system error into an Error with a message for the model, naming the
 * workspace-relative path and what to do, never a bare code such as `ELOOP`; errors
 * without an errno code are returned as they are.
 */
export function describeFsError(error: unknown, path: string): unknown {
  const code = fsErrorCode(error);
  // Only errno codes (`ELOOP`, `EMFILE`); other errors with a code (HintgateError) pass.
  if (code === undefined || !code.startsWith('E') || code !== code.toUpperCase()) return error;
  const message = MESSAGES[code];
  return new Error(
    message === undefined ? `"${path}": ${describeFsErrorCode(error)}.` : message(path),
    { cause: error },
  );
}
