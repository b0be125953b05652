// The public API of hintgate. Node-only adapters live behind subpath exports.

export {
  AUDIT_EVENT_TYPES,
  type AuditEvent,
  type AuditEventType,
  type AuditSink,
  argumentDigest,
  createJsonlAuditSink,
  createMemoryAuditSink,
  type JsonlAuditSinkOptions,
  type MemoryAuditSink,
} from './audit/index.js';
export { HINTGATE_ERROR_CODES, HintgateError, type HintgateErrorCode } from './errors/index.js';
export {
  type ApprovalAsk,
  type ApprovalOutcome,
  type Authorizer,
  allowAll,
  type CallRequest,
  type Decision,
  deriveApprovalKeys,
} from './policy/index.js';
export {
  createRegistry,
  type OriginInfo,
  type OriginOptions,
  type RegisteredTool,
  type RegistryOptions,
  type ToolChange,
  type ToolConfig,
  type ToolDescription,
  type ToolLayer,
  ToolRegistry,
} from './registry/index.js';
export {
  createRuntime,
  DEFAULT_TIMEOUT_MS,
  type ExecuteOptions,
  isRetryable,
  type PlanEntry,
  RetryableError,
  type Runtime,
  type RuntimeOptions,
  type ToolCall,
} from './runtime/index.js';
export { type Clock, type LockMode, normalizeResourceKey } from './schedule/index.js';
export {
  type CallErrorCode,
  type CallResult,
  type CallStatus,
  type CallToolResult,
  type ContentBlock,
  classify,
  DEFAULT_MAX_OUTPUT_CHARS,
  DESTRUCTIVE,
  type DefineToolOptions,
  defineTool,
  type EffectiveHints,
  effectiveAnnotations,
  type JsonSchemaObject,
  type RateLimit,
  READ_ONLY,
  type RetryOptions,
  type SchemaInput,
  SPEC_DEFAULT_HINTS,
  type Tool,
  type ToolAnnotations,
  type ToolClass,
  type ToolContext,
  type ToolListing,
  toToolListing,
  WRITE,
} from './tool/index.js';
