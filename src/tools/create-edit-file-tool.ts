import { posix } from 'node:path';
import { RegularFileError, readRegularFile } from '../fs/index.js';
import type { Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import { describeFsError } from './describe-fs-error.js';
import { looksBinary } from './looks-binary.js';
import { openWorkspaceDirectory, type WorkspaceDirectory } from './open-workspace-directory.js';
import { refuseProtectedPath } from './protected-paths.js';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';
import { writeWorkspaceFile } from './write-workspace-file.js';

type EditFileArgs = { path: string; old_string: string; new_string: string; replace_all?: boolean };

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      description: 'File to edit, relative to the workspace root.',
    },
    old_string: {
      type: 'string',
      minLength: 1,
      description:
        "Exact text to replace, whitespace and indentation included, without read_file's line-number prefixes. It must occur exactly once unless replace_all is true; include surrounding lines to make it unique.",
    },
    new_string: { type: 'string', description: 'Text to put in its place.' },
    replace_all: {
      type: 'boolean',
      default: false,
      description: 'Replace every occurrence instead of requiring exactly one. Default false.',
    },
  },
  required: ['path', 'old_string', 'new_string'],
  additionalProperties: false,
} as const;

const MAX_LINES_NAMED = 10;
// Linear: [ \t]* stays on one line (\s* would also cross newlines, retried from every line start).
const LINE_PREFIX = /^[ \t]*\d+\t/m;

/** Start offsets of the non-overlapping occurrences of `needle` in `text`. */
const occurrences = (text: string, needle: string): number[] => {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    found.push(i);
  }
  return found;
};

/** 1-based line numbers of ascending offsets, in one pass. */
const lineNumbers = (text: string, indexes: readonly number[]): number[] => {
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const index of indexes) {
    for (let i = text.indexOf('\n', from); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
      line += 1;
    }
    from = index;
    lines.push(line);
  }
  return lines;
};

const listLines = (lines: readonly number[]): string =>
  lines.slice(0, MAX_LINES_NAMED).join(', ') + (lines.length > MAX_LINES_NAMED ? ', ...' : '');

const notFound = (shown: string, oldString: string): Error => {
  const hint = LINE_PREFIX.test(oldString)
    ? "old_string seems to include read_file's line-number prefixes; leave them out."
    : 'Read the file again with read_file and copy the text exactly, whitespace and indentation included.';
  return new Error(`old_string was not found in ${shown}, so nothing was changed. ${hint}`);
};

/**
 * `edit_file`: replaces an exact string in a workspace file; fails, changing nothing, when
 * the string does not occur or occurs several times (unless `replace_all`), saying how
 * often and on which lines. Line endings follow the file (an old_string written with `\n`
 * matches a CRLF file). Destructive (it replaces content) and not idempotent (a second call
 * finds a different file). Resource key `file:<path>`. Refuses the `protectedPaths`
 * (hintgate's own state).
 */
export function createEditFileTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, maxFileBytes, protectedPaths } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'edit_file',
    title: 'Edit file',
    description:
      'Replace an exact piece of text in an existing workspace file with new text. old_string must match the file exactly (whitespace included) and occur exactly once, unless replace_all is true; otherwise nothing changes and the reply says how many matches there were. Read the file first. To create a file or rewrite it whole, use write_file.',
    annotations: {
      title: 'Edit file',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    inputSchema,
    resources: (args) => [workspaceFileKey(workspace, (args as EditFileArgs).path)],
    execute: async (args) => {
      const {
        path,
        old_string: oldArg,
        new_string: newArg,
        replace_all = false,
      } = args as EditFileArgs;
      const target = resolveInWorkspace(workspace, path);
      refuseProtectedPath(workspace, protectedPaths, path, target);
      const shown = target.relative;
      if (oldArg === newArg) {
        throw new Error('old_string and new_string are the same, so there is nothing to change.');
      }
      if (shown === '.') throw new Error(`"${shown}" is not a regular file.`);
      const name = posix.basename(shown);
      let directory: WorkspaceDirectory | undefined;
      try {
        directory = await openWorkspaceDirectory(target.root, posix.dirname(shown), {
          create: false,
          shown,
        });
        const bytes = await readForEdit(directory, name, shown, maxFileBytes);
        const edited = editText(bytes, shown, oldArg, newArg, replace_all);
        await writeWorkspaceFile(directory, name, edited.text);
        return edited.reply;
      } catch (error) {
        throw describeFsError(error, shown);
      } finally {
        await directory?.close();
      }
    },
  });
}

/**
 * The file's bytes, read through the checked directory without following a link: only a
 * regular file of at most `maxFileBytes`.
 */
async function readForEdit(
  directory: WorkspaceDirectory,
  name: string,
  shown: string,
  maxFileBytes: number,
): Promise<Buffer> {
  try {
    return (
      await readRegularFile(directory.entry(name), { maxBytes: maxFileBytes, noFollow: true })
    ).bytes;
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    if (error.problem === 'too_large') {
      throw new Error(
        `${shown} is ${error.size} bytes, more than edit_file handles (${maxFileBytes}); change it with run_command (for example sed) instead.`,
      );
    }
    if (error.problem === 'special' || error.problem === 'directory') {
      throw new Error(`"${shown}" is not a regular file.`);
    }
    throw error.cause ?? error;
  }
}

/** The edit of `bytes`: the new text and the reply, or an error saying why nothing changed. */
function editText(
  bytes: Buffer,
  shown: string,
  oldArg: string,
  newArg: string,
  replace_all: boolean,
): { readonly text: string; readonly reply: string } {
  const text = bytes.toString('utf8');
  if (looksBinary(bytes) || !Buffer.from(text, 'utf8').equals(bytes)) {
    throw new Error(`${shown} is not a UTF-8 text file; edit_file only edits text.`);
  }
  let oldString = oldArg;
  let newString = newArg;
  let found = occurrences(text, oldString);
  if (
    found.length === 0 &&
    text.includes('\r\n') &&
    oldArg.includes('\n') &&
    !oldArg.includes('\r')
  ) {
    oldString = oldArg.replaceAll('\n', '\r\n');
    newString = newArg.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n');
    found = occurrences(text, oldString);
  }
  if (found.length === 0) throw notFound(shown, oldArg);
  const lines = lineNumbers(text, found);
  if (found.length > 1 && !replace_all) {
    throw new Error(
      `old_string occurs ${found.length} times in ${shown} (lines ${listLines(lines)}), so nothing was changed. Include more surrounding lines to make it unique, or set replace_all to true to replace all ${found.length}.`,
    );
  }
  const first = found[0] ?? 0;
  const edited = replace_all
    ? text.split(oldString).join(newString)
    : text.slice(0, first) + newString + text.slice(first + oldString.length);
  const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${listLines(lines)}`;
  return {
    text: edited,
    reply: `Edited ${shown}: replaced ${found.length} occurrence${found.length === 1 ? '' : 's'} (${where}).`,
  };
}
