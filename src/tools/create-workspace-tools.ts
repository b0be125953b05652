import type { Tool } from '../tool/index.js';
import { createAliasTool } from './create-alias-tool.js';
import { createDelegateTaskTool } from './create-delegate-task-tool.js';
import { createEditFileTool } from './create-edit-file-tool.js';
import { createGlobTool } from './create-glob-tool.js';
import { createGrepSearchTool } from './create-grep-search-tool.js';
import { createIndexWorkspaceTool } from './create-index-workspace-tool.js';
import { createListDirectoryTool } from './create-list-directory-tool.js';
import { createPatchFileTool } from './create-patch-file-tool.js';
import { createReadFileTool } from './create-read-file-tool.js';
import { createRunCommandTool } from './create-run-command-tool.js';
import { createSemanticSearchTool } from './create-semantic-search-tool.js';
import { createWebFetchTool } from './create-web-fetch-tool.js';
import { createWriteFileTool } from './create-write-file-tool.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

/**
 * Names of the built-in workspace tools {@link createWorkspaceTools} returns by default, in
 * its order (`delegate_task` comes last when a `delegate` is given).
 */
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
  'index_workspace',
  'semantic_search',
  'str_replace',
  'bash',
] as const;

/** One of {@link WORKSPACE_TOOL_NAMES}. */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

/** The tools made by a factory of their own (not aliases). */
type OwnToolName = Exclude<WorkspaceToolName, keyof typeof ALIASES>;

/** ak-coder's names of two tools, offered as aliases (see `aliases`). */
const ALIASES = { str_replace: 'edit_file', bash: 'run_command' } as const;

const FACTORIES: Readonly<Record<OwnToolName, (options: WorkspaceToolsOptions) => Tool>> = {
  read_file: createReadFileTool,
  write_file: createWriteFileTool,
  edit_file: createEditFileTool,
  list_directory: createListDirectoryTool,
  glob: createGlobTool,
  grep_search: createGrepSearchTool,
  run_command: createRunCommandTool,
  web_fetch: createWebFetchTool,
  patch_file: createPatchFileTool,
  index_workspace: createIndexWorkspaceTool,
  semantic_search: createSemanticSearchTool,
};

/**
 * The built-in workspace tools, confined to `options.workspace`, with honest annotations
 * and resource keys (see docs/tools.md): `read_file`, `write_file`, `edit_file`,
 * `list_directory`, `glob`, `grep_search`, `run_command`, `web_fetch`, `patch_file`,
 * `index_workspace`, `semantic_search`, ak-coder's names `str_replace` and `bash` for
 * `edit_file` and `run_command` (unless `aliases: false`), and `delegate_task` when a
 * `delegate` is given. Hand them to `createRuntime({ tools })` or a registry origin; drop
 * some with `Array.filter` by name.
 *
 * @throws HintgateError `invalid_option` when the workspace is not an existing directory or
 * an option is out of range.
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions): Tool[] {
  const resolved = resolveWorkspaceToolsOptions(options);
  const made = new Map<string, Tool>();
  for (const name of WORKSPACE_TOOL_NAMES) {
    if (name in ALIASES) {
      if (!resolved.aliases) continue;
      const original = made.get(ALIASES[name as keyof typeof ALIASES]) as Tool;
      made.set(name, createAliasTool(original, { name }));
    } else {
      made.set(name, FACTORIES[name as OwnToolName](resolved));
    }
  }
  if (resolved.delegate !== undefined) made.set('delegate_task', createDelegateTaskTool(resolved));
  return [...made.values()];
}
