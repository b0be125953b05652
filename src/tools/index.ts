export { type CommandSafetyOptions, checkCommandSafety } from './check-command-safety.js';
export { commandApprovalKeys } from './command-approval-keys.js';
export { type AliasToolOptions, createAliasTool } from './create-alias-tool.js';
export { createDelegateTaskTool } from './create-delegate-task-tool.js';
export { createEditFileTool } from './create-edit-file-tool.js';
export { createGlobTool } from './create-glob-tool.js';
export { createGrepSearchTool } from './create-grep-search-tool.js';
export { createIndexWorkspaceTool } from './create-index-workspace-tool.js';
export { createListDirectoryTool } from './create-list-directory-tool.js';
export { createPatchFileTool } from './create-patch-file-tool.js';
export { createReadFileTool } from './create-read-file-tool.js';
export { createRunCommandTool, MAX_COMMAND_TIMEOUT_MS } from './create-run-command-tool.js';
export { createSemanticSearchTool } from './create-semantic-search-tool.js';
export { createWebFetchTool, MAX_FETCH_CHARS } from './create-web-fetch-tool.js';
export {
  createWorkspaceTools,
  WORKSPACE_TOOL_NAMES,
  type WorkspaceToolName,
} from './create-workspace-tools.js';
export { createWriteFileTool } from './create-write-file-tool.js';
export { createFetchAllowList, type FetchAllowList } from './fetch-allow-list.js';
export type { ResolvedAddress, ResolveHost } from './guarded-get.js';
export { type HtmlText, htmlToText } from './html-to-text.js';
export { type HttpEmbedderOptions, httpEmbedder } from './http-embedder.js';
export type { CommandKeys } from './keys-of-line.js';
export { MAX_COMMAND_LENGTH } from './max-command-length.js';
export type {
  DelegateContext,
  DelegateFunction,
  DelegateOption,
  DelegateSettings,
  DelegateTask,
} from './resolve-delegate.js';
export type {
  Embedder,
  EmbedderOptions,
  EmbeddingModelLike,
  Embeddings,
  EmbedFunction,
} from './resolve-embedder.js';
export {
  resolveInWorkspace,
  type WorkspacePath,
  workspaceFileKey,
} from './resolve-in-workspace.js';
export { SAFE_VARIABLES } from './safe-variables.js';
export {
  WORKSPACE_TOOL_DEFAULTS,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';
