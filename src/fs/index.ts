export {
  acquireFileLock,
  type FileLock,
  type FileLockOptions,
  FileLockTimeoutError,
} from './file-lock.js';
export { type WriteFileAtomicOptions, writeFileAtomic } from './write-file-atomic.js';
