import type { AuditFileSystem } from './audit-file-system.js';

/**
 * Moves an audit log out of the way for a fresh one: `PATH.(keep-1)` becomes `PATH.keep`
 * (replacing the oldest kept file), ..., `PATH.1` becomes `PATH.2`, and `PATH` becomes
 * `PATH.1`. A file missing in that chain is skipped. Synchronous renames: nothing is copied,
 * so a descriptor open on `PATH` goes on writing to what is now `PATH.1`. Throws what the
 * file system throws; a failure part way leaves every file whole, under its old or new name.
 */
export function shiftAuditFiles(path: string, keep: number, fileSystem: AuditFileSystem): void {
  for (let index = keep - 1; index >= 1; index -= 1) {
    const from = `${path}.${index}`;
    if (fileSystem.exists(from)) fileSystem.rename(from, `${path}.${index + 1}`);
  }
  fileSystem.rename(path, `${path}.1`);
}
