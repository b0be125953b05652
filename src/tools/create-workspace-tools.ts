import type { Tool } from '../tool/tool.js';
import { createEditFileTool } from './create-edit-file-tool.js';
import { createGlobTool } from './create-glob-tool.js';
import { createGrepSearchTool } from './create-grep-search-tool.js';
import { createListDirectoryTool } from './create-list-directory-tool.js';
import { createPatchFileTool } from './create-patch-file-tool.js';
import { createReadFileTool } from './create-read-file-tool.js';
import { createRunCommandTool } from './create-run-command-tool.js';
import { createWebFetchTool } from './create-web-fetch-tool.js';
import { createWriteFileTool } from './create-write-file-tool.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

/** Names of the built-in workspace tools, in the order {@link createWorkspaceTools} returns them. */
export const WORKSPACE_TOOL_NAMES = [
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'glob',
  'grep_search',
  'run_command',
  'web_fetch',
  'patch_file',
] as const;

/** One of {@link WORKSPACE_TOOL_NAMES}. */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

const FACTORIES: Readonly<Record<WorkspaceToolName, (options: WorkspaceToolsOptions) => Tool>> = {
  read_file: createReadFileTool,
  write_file: createWriteFileTool,
  edit_file: createEditFileTool,
  list_directory: createListDirectoryTool,
  glob: createGlobTool,
  grep_search: createGrepSearchTool,
  run_command: createRunCommandTool,
  web_fetch: createWebFetchTool,
  patch_file: createPatchFileTool,
};

/**
 * The built-in workspace tools, confined to `options.workspace`, with honest annotations
 * and resource keys (see docs/tools.md): `read_file`, `write_file`, `edit_file`,
 * `list_directory`, `glob`, `grep_search`, `run_command`, `web_fetch`. Hand them to
 * `createRuntime({ tools })` or a registry origin; drop some with `Array.filter` by name.
 *
 * @throws HintgateError `invalid_option` when the workspace is not an existing directory or
 * an option is out of range.
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions): Tool[] {
  const resolved = resolveWorkspaceToolsOptions(options);
  return WORKSPACE_TOOL_NAMES.map((name) => FACTORIES[name](resolved));
}
