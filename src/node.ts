// The Node-only API of hintgate (`hintgate/node`): what reads or writes files. The root
// `hintgate` imports no Node I/O module, so it also runs where there is no file system.

export {
  type AuditFileSystem,
  type AuditRotateOptions,
  createJsonlAuditSink,
  type JsonlAuditSinkOptions,
  type JsonlSync,
} from './audit/node.js';
export {
  createToolDiscovery,
  createTrustStore,
  type DiscoveryStatus,
  type HeldBackProject,
  hintgateHome,
  ToolDiscovery,
  type ToolDiscoveryOptions,
  type ToolModuleApi,
  type ToolModuleContext,
  type TrustAnswer,
  type TrustRequest,
  type TrustStore,
} from './discovery/index.js';
export {
  type ApprovalRecord,
  type ApprovalStore,
  type ApprovalStoreOptions,
  createApprovalStore,
  type LoadPolicyOptions,
  loadPolicy,
} from './policy/node.js';
