export {
  type EffectiveHints,
  HINT_NAMES,
  type HintName,
  SPEC_DEFAULT_HINTS,
  type ToolAnnotations,
} from './annotations.js';
export type { ApprovalKeyResult, ApprovalKeys, OpaquePart } from './approval-keys.js';
export { classify, type ToolClass } from './classify.js';
export {
  type DefineToolOptions,
  defineTool,
  type InferArguments,
  isTool,
  TOOL_NAME_PATTERN,
  withExecute,
} from './define-tool.js';
export { effectiveAnnotations } from './effective-annotations.js';
export { isPlainObject, type JsonSchemaObject } from './json-schema.js';
export { linearRegExp } from './linear-reg-exp.js';
export { isTimerMs, MAX_TIMER_MS } from './max-timer-ms.js';
export { type NormalizedOutput, normalizeOutput, type OutputProblem } from './normalize-output.js';
export { nullRecord } from './null-record.js';
export { ownValue } from './own-value.js';
export { DESTRUCTIVE, READ_ONLY, WRITE } from './presets.js';
export type { ResourcesOption, ToolArguments } from './resource-template.js';
export { compileResources } from './resource-template.js';
export { toToolListing } from './to-tool-listing.js';
export type {
  RateLimit,
  RetryOptions,
  Tool,
  ToolCancellation,
  ToolContext,
  ToolListing,
  ToolProgress,
} from './tool.js';
export {
  type CallErrorCode,
  type CallResult,
  type CallStatus,
  type CallToolResult,
  type ContentBlock,
  isCallToolResult,
  type OtherContent,
  type TextContent,
} from './tool-result.js';
export {
  PLAIN_JSON_SCHEMA_VENDOR,
  type SchemaInput,
  type ToolSchema,
  toolSchema,
  type ValidationOutcome,
} from './tool-schema.js';
export {
  DEFAULT_MAX_OUTPUT_CHARS,
  outputFits,
  type TruncatedOutput,
  truncateOutput,
} from './truncate-output.js';
