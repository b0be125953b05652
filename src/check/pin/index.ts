export {
  type ComparePinsOptions,
  comparePins,
  type HintMove,
  hintMoves,
  lessCautionMoves,
  PIN_FINDING_IDS,
  type PinFinding,
  type PinFindingId,
  type PinReport,
  type PinSeverity,
  type PinStatus,
  type ToolPinState,
} from './compare-pins.js';
export { type DefinitionDigests, definitionDigests } from './definition-digests.js';
export {
  DEFINITION_FIELDS,
  type DefinitionField,
  definitionBodyHash,
  definitionFields,
  definitionHash,
  fieldDigests,
  isPinnedMetaKey,
  pinnedMeta,
} from './definition-hash.js';
export {
  type FormatPinReviewOptions,
  formatPinReview,
  type PinReview,
} from './format-pin-review.js';
export { gainedInstructions, isInstruction } from './gained-instructions.js';
export {
  emptyLockFile,
  formatLockFile,
  LOCK_FILE_NAME,
  LOCK_FILE_VERSION,
  type LockFile,
  type LockFileWriteOptions,
  PIN_VERDICTS,
  type PinnedServer,
  type PinnedTool,
  type PinVerdict,
  parseLockFile,
  sameLockFile,
  updateLockFile,
  writeLockFile,
} from './lock-file.js';
export { type PinToolsOptions, pinTools } from './pin-tools.js';
export {
  type PinnedDefinition,
  type PinnedJson,
  pinnedDefinition,
  pinnedDefinitionBodyHash,
  pinnedDefinitionFields,
  pinnedDescription,
} from './pinned-definition.js';
export { type ReadLockFile, readLockFile, readLockFileIfChanged } from './read-lock-file.js';
