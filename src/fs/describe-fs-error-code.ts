/** Plain-language reasons for the file-system error codes people meet with files they give. */
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'it does not exist',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'it is a directory',
  ELOOP:
    'the path runs into a loop of symbolic links (a link that points back to itself, directly or through others)',
  ENAMETOOLONG: 'the path, or a part of it, is too long',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EMFILE: 'this process has too many files open',
  ENFILE: 'the system has too many files open',
  EIO: 'an input/output error',
  ENXIO: 'it is a device or socket that cannot be opened',
  EAGAIN: 'it is busy',
  EBUSY: 'it is busy',
  ENOSPC: 'the disk is full',
  EROFS: 'the file system is read-only',
  EEXIST: 'it already exists',
};

/** The `code` of a Node file-system error, when it has one. */
export function fsErrorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Says in plain words why a file-system operation failed: `it does not exist`, `the path
 * runs into a loop of symbolic links (...)`, never a bare `ELOOP`. Errors with an unknown
 * code give their message with the code after it.
 */
export function describeFsErrorCode(error: unknown): string {
  const code = fsErrorCode(error);
  const reason = code === undefined ? undefined : REASONS[code];
  if (reason !== undefined) return reason;
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined || message.includes(code) ? message : `${message} (${code})`;
}
