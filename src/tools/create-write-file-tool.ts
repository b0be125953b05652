import { posix } from 'node:path';
import type { Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import { describeFsError } from './describe-fs-error.js';
import { openWorkspaceDirectory, type WorkspaceDirectory } from './open-workspace-directory.js';
import { refuseProtectedPath } from './protected-paths.js';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';
import { writeWorkspaceFile } from './write-workspace-file.js';

type WriteFileArgs = { path: string; content: string };

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      description:
        'File to create or replace, relative to the workspace root. Missing parent directories are created.',
    },
    content: { type: 'string', description: 'The complete new content of the file (UTF-8).' },
  },
  required: ['path', 'content'],
  additionalProperties: false,
} as const;

const countLines = (text: string): number => {
  if (text === '') return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
};

/**
 * `write_file`: creates a workspace file or replaces its whole content, creating missing
 * parent directories, atomically (temporary file, then rename), through a handle on the
 * checked directory, so that a directory swapped for a link meanwhile cannot redirect it
 * outside the workspace (see `openWorkspaceDirectory`). Destructive, since it
 * overwrites, and idempotent, since writing the same content twice leaves the same file.
 * Resource key `file:<path>`. Refuses the `protectedPaths` (hintgate's own state).
 */
export function createWriteFileTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, protectedPaths } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'write_file',
    title: 'Write file',
    description:
      'Create a file in the workspace, or replace the whole content of an existing one, with the given text. Parent directories are created as needed. To change part of an existing file, prefer edit_file. Paths are relative to the workspace root.',
    annotations: {
      title: 'Write file',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    inputSchema,
    resources: (args) => [workspaceFileKey(workspace, (args as WriteFileArgs).path)],
    execute: async (args) => {
      const { path, content } = args as WriteFileArgs;
      const target = resolveInWorkspace(workspace, path);
      refuseProtectedPath(workspace, protectedPaths, path, target);
      const shown = target.relative;
      const isDirectory = (): Error =>
        new Error(`"${shown}" is a directory; give the path of a file inside it.`);
      if (shown === '.') throw isDirectory();
      let directory: WorkspaceDirectory | undefined;
      let replaced: boolean;
      try {
        directory = await openWorkspaceDirectory(target.root, posix.dirname(shown), {
          create: true,
          shown,
        });
        ({ replaced } = await writeWorkspaceFile(directory, posix.basename(shown), content));
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 'EISDIR') throw isDirectory();
        throw describeFsError(error, shown);
      } finally {
        await directory?.close();
      }
      const bytes = Buffer.byteLength(content);
      const lines = countLines(content);
      return `${replaced ? 'Replaced' : 'Created'} ${shown} (${bytes} bytes, ${lines} line${lines === 1 ? '' : 's'}).`;
    },
  });
}
