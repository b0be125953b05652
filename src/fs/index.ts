export { describeFsErrorCode, fsErrorCode } from './describe-fs-error-code.js';
export {
  acquireFileLock,
  type FileLock,
  FileLockLostError,
  type FileLockOptions,
  FileLockTimeoutError,
} from './file-lock.js';
export {
  formatBytes,
  type ReadRegularFileOptions,
  type RegularFileContent,
  RegularFileError,
  type RegularFileProblem,
  readRegularFile,
} from './read-regular-file.js';
export { MAX_CONFIG_FILE_BYTES, type ReadTextFileOptions, readTextFile } from './read-text-file.js';
export { type WriteFileAtomicOptions, writeFileAtomic } from './write-file-atomic.js';
