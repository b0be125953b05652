/**
 * Pins and the lock file, without the lint, the probe and the reports (and the MCP server
 * code they bring): what `hintgate pin` loads of the check layer, and what the gateway
 * checks its upstreams' pins with.
 */
export {
  comparePins,
  type DefinitionDigests,
  definitionDigests,
  formatPinReview,
  type LockFile,
  type PinFinding,
  type PinReport,
  type PinStatus,
  type PinVerdict,
  pinTools,
  type ReadLockFile,
  readLockFileIfChanged,
  sameLockFile,
  updateLockFile,
} from './pin/index.js';
