const MESSAGES: Readonly<Record<string, (path: string) => string>> = {
  ENOENT: (path) => `"${path}" does not exist. Check the path with list_directory or glob.`,
  ENOTDIR: (path) => `A part of "${path}" is a file, not a directory.`,
  EISDIR: (path) => `"${path}" is a directory, not a file; list it with list_directory.`,
  EACCES: (path) => `Permission denied for "${path}".`,
  EPERM: (path) => `The operation is not permitted on "${path}".`,
  EEXIST: (path) => `"${path}" already exists as something that is not a directory.`,
  ENOSPC: () => 'The disk is full.',
  EROFS: (path) => `"${path}" is on a read-only file system.`,
};

/**
 * Turns a Node file-system error into an Error with a message for the model, naming the
 * workspace-relative path and what to do; other errors are returned as they are.
 */
export function describeFsError(error: unknown, path: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = typeof code === 'string' ? MESSAGES[code] : undefined;
  return message === undefined ? error : new Error(message(path), { cause: error });
}
