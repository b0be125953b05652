/**
 * The parts of the check layer `hintgate pin` loads: pins and the lock file, without the
 * lint, the probe and the reports (and the MCP server code they bring).
 */
export {
  canonicalCopy,
  comparePins,
  type DefinitionDigests,
  definitionDigests,
  formatPinReview,
  type LockFile,
  type PinReport,
  pinTools,
  readLockFileIfChanged,
  sameLockFile,
  updateLockFile,
} from './pin/index.js';
