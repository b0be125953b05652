import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from '../tool/index.js';
import { defineTool, READ_ONLY } from '../tool/index.js';
import { describeFsError } from './describe-fs-error.js';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type ListDirectoryArgs = { path?: string };

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      description: 'Directory to list, relative to the workspace root. Default: the root (".").',
    },
  },
  additionalProperties: false,
} as const;

const marker = (entry: Dirent): string => {
  if (entry.isDirectory()) return '/';
  if (entry.isSymbolicLink()) return '@';
  if (entry.isFIFO()) return '|';
  if (entry.isSocket()) return '=';
  return '';
};

const byKindThenName = (a: Dirent, b: Dirent): number => {
  const kind = Number(b.isDirectory()) - Number(a.isDirectory());
  if (kind !== 0) return kind;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
};

/**
 * `list_directory`: the entries of a workspace directory, directories first, then by name,
 * marked `name/` (directory), `name@` (symbolic link), `name (123 bytes)` (file), at most
 * `maxListEntries` of them with a count of the rest. Read-only; resource key
 * `file:<path>`, which as a directory key covers its whole subtree.
 */
export function createListDirectoryTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, maxListEntries } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'list_directory',
    title: 'List directory',
    description:
      'List the entries of a workspace directory: directories first (marked with a trailing "/"), then files with their size in bytes; symbolic links end in "@". Nothing is hidden (dotfiles and ignored files are listed). For finding files by name across directories, use glob.',
    annotations: { title: 'List directory', ...READ_ONLY },
    inputSchema,
    resources: (args) => [workspaceFileKey(workspace, (args as ListDirectoryArgs).path)],
    execute: async (args) => {
      const { path = '.' } = args as ListDirectoryArgs;
      const target = resolveInWorkspace(workspace, path);
      const shown = target.relative;
      let entries: Dirent[];
      try {
        if (!(await stat(target.absolute)).isDirectory()) {
          throw new Error(`"${shown}" is a file, not a directory; read it with read_file.`);
        }
        entries = await readdir(target.absolute, { withFileTypes: true });
      } catch (error) {
        throw describeFsError(error, shown);
      }
      if (entries.length === 0) return `(${shown} is empty.)`;
      entries.sort(byKindThenName);
      const listed = entries.slice(0, maxListEntries);
      const lines = await Promise.all(
        listed.map(async (entry) => {
          const mark = marker(entry);
          if (mark !== '' || !entry.isFile()) return `${entry.name}${mark}`;
          const size = await lstat(join(target.absolute, entry.name)).then(
            (info) => ` (${info.size} bytes)`,
            () => '',
          );
          return `${entry.name}${size}`;
        }),
      );
      const directories = entries.filter((entry) => entry.isDirectory()).length;
      const header = `${shown === '.' ? 'Workspace root' : shown}: ${directories} director${directories === 1 ? 'y' : 'ies'}, ${entries.length - directories} other entr${entries.length - directories === 1 ? 'y' : 'ies'}`;
      const rest = entries.length - listed.length;
      const footer =
        rest > 0
          ? `\n[${rest} more entries not shown. List a subdirectory, or use glob with a pattern to narrow.]`
          : '';
      return `${header}\n${lines.join('\n')}${footer}`;
    },
  });
}
