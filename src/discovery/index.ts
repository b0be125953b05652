export type {
  DiscoveredModule,
  DiscoveryProblem,
  DiscoveryStatus,
  FolderLayer,
  HeldBackProject,
  TrustAnswer,
  TrustRequest,
} from './discovery-types.js';
export { findToolFiles, TOOL_MODULE_EXTENSIONS, type ToolFiles } from './find-tool-files.js';
export { HINTGATE_HOME_ENV, hintgateHome } from './hintgate-home.js';
export type { ToolModuleApi, ToolModuleContext } from './load-tool-module.js';
export {
  createToolDiscovery,
  ToolDiscovery,
  type ToolDiscoveryOptions,
} from './tool-discovery.js';
export {
  createTrustStore,
  type ProjectTrustRecord,
  type ProjectTrustStatus,
  TRUST_FILE_NAME,
  type TrustStore,
  type TrustStoreOptions,
} from './trust-store.js';
