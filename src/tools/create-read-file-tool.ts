import { stat } from 'node:fs/promises';
import type { Tool } from '../tool/index.js';
import { defineTool, READ_ONLY } from '../tool/index.js';
import { describeFsError } from './describe-fs-error.js';
import { BinaryFileError, readTextLines } from './read-text-lines.js';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type ReadFileArgs = { path: string; offset?: number; limit?: number };

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      description: 'File to read, relative to the workspace root, e.g. "src/index.ts".',
    },
    offset: {
      type: 'integer',
      minimum: 1,
      description: 'Line number to start at, 1-based. Default 1. Use it to read on in a long file.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      description: 'Most lines to return. Default: as many as fit in one reply.',
    },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

/**
 * `read_file`: the text of a workspace file with line numbers (`     7\tconst x = 1;`), from
 * `offset` for up to `limit` lines and at most `maxReadChars` characters. When it stops
 * early it says where and which `offset` reads on; binary files (a NUL byte near the start)
 * are refused. Read-only; resource key `file:<path>`.
 */
export function createReadFileTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, maxReadChars } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'read_file',
    title: 'Read file',
    description:
      'Read a text file of the workspace. Each line comes prefixed with its line number and a tab ("    12\\t"); the prefix is not part of the file, so leave it out of edit_file\'s old_string. Long files come in parts: the reply says which offset reads on. Binary files are refused. Paths are relative to the workspace root.',
    annotations: { title: 'Read file', ...READ_ONLY },
    inputSchema,
    resources: (args) => [workspaceFileKey(workspace, (args as ReadFileArgs).path)],
    execute: async (args, { signal }) => {
      const { path, offset = 1, limit = Number.MAX_SAFE_INTEGER } = args as ReadFileArgs;
      const target = resolveInWorkspace(workspace, path);
      const shown = target.relative;
      try {
        const info = await stat(target.absolute);
        if (info.isDirectory()) {
          throw new Error(`"${shown}" is a directory; list it with list_directory.`);
        }
        if (!info.isFile())
          throw new Error(`"${shown}" is not a regular file (a device, socket or pipe).`);
        const read = await readTextLines(target.absolute, {
          offset,
          limit,
          maxChars: maxReadChars,
          signal,
        });
        if (read.lastLine === 0) return `(${shown} is empty.)`;
        if (read.lines.length === 0) {
          throw new Error(
            `${shown} has ${read.lastLine} lines, so offset ${offset} is past its end. Use an offset from 1 to ${read.lastLine}.`,
          );
        }
        const first = offset;
        const body = read.lines.join('\n');
        if (!read.complete) {
          const why =
            read.stoppedBy === 'chars'
              ? `one reply holds at most ${maxReadChars} characters`
              : `limit ${limit} reached`;
          return `${body}\n[Showing lines ${first}-${read.lastLine} of ${shown} (${why}); the file goes on, ${read.size} bytes in all. To read more, call read_file with offset=${read.lastLine + 1}.]`;
        }
        return first > 1
          ? `${body}\n[End of file: lines ${first}-${read.lastLine} of ${read.lastLine}.]`
          : body;
      } catch (error) {
        if (error instanceof BinaryFileError) {
          throw new Error(
            `${shown} is a binary file (${error.size} bytes); read_file only returns text. Inspect it with run_command (for example "file ${shown}" or "xxd ${shown} | head").`,
          );
        }
        throw describeFsError(error, shown);
      }
    },
  });
}
