import { posix } from 'node:path';
import { fsErrorCode, RegularFileError, readRegularFile } from '../fs/index.js';
import type { Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import { applyFileHunks, type ComparisonBudget, MAX_LINE_COMPARISONS } from './apply-file-hunks.js';
import { commitFileChanges, type FileChange } from './commit-file-changes.js';
import { describeFsError } from './describe-fs-error.js';
import { looksBinary } from './looks-binary.js';
import { openWorkspaceDirectory } from './open-workspace-directory.js';
import { type FilePatch, MAX_PATCH_CHARS, patchPaths, planPatch } from './plan-patch.js';
import { refuseProtectedPath } from './protected-paths.js';
import {
  resolveInWorkspace,
  type WorkspacePath,
  workspaceFileKey,
} from './resolve-in-workspace.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type FindReplace = { find: string; replace: string };
type PatchFileArgs = { patch?: string; path?: string; patches?: FindReplace[] };

const inputSchema = {
  type: 'object',
  properties: {
    patch: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_PATCH_CHARS,
      description:
        'A unified diff as git diff prints it, for one or several files: "--- a/src/x.ts" and "+++ b/src/x.ts" lines, then "@@ -12,4 +12,5 @@" hunks whose context (" ") and removed ("-") lines match the file exactly. "--- /dev/null" creates a file, "+++ /dev/null" deletes one.',
    },
    path: {
      type: 'string',
      minLength: 1,
      description: 'With patches instead of patch: the file to change, relative to the workspace.',
    },
    patches: {
      type: 'array',
      minItems: 1,
      description:
        'With path instead of patch: search-and-replace edits applied in order; each find must occur exactly once.',
      items: {
        type: 'object',
        properties: {
          find: { type: 'string', minLength: 1, description: 'Exact text to find.' },
          replace: { type: 'string', description: 'Text to put in its place.' },
        },
        required: ['find', 'replace'],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

/** The files of a call: a unified diff's parts, or the one file of find/replace edits. */
const planOf = (args: PatchFileArgs): FilePatch[] | { path: string; patches: FindReplace[] } => {
  const { patch, path, patches } = args;
  if (patch !== undefined) {
    if (path !== undefined || patches !== undefined) {
      throw new Error(
        'Give either patch (a unified diff) or path with patches (find/replace edits), not both.',
      );
    }
    return planPatch(patch);
  }
  if (path === undefined || patches === undefined) {
    throw new Error(
      'Give patch (a unified diff), or path together with patches (a list of { find, replace }).',
    );
  }
  return { path, patches };
};

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The text of a file's bytes, or an error when it is not UTF-8 text. */
const textOf = (bytes: Buffer, shown: string): string => {
  const text = bytes.toString('utf8');
  if (looksBinary(bytes) || !Buffer.from(text, 'utf8').equals(bytes)) {
    throw new Error(
      `${shown} is not a UTF-8 text file; patch_file only changes text. Nothing was changed.`,
    );
  }
  return text;
};

/** A file's bytes, read through its checked directory without following a link; undefined when missing. */
async function readExisting(
  root: string,
  shown: string,
  maxBytes: number,
): Promise<Buffer | undefined> {
  let directory: Awaited<ReturnType<typeof openWorkspaceDirectory>> | undefined;
  try {
    directory = await openWorkspaceDirectory(root, posix.dirname(shown), { create: false, shown });
    return (
      await readRegularFile(directory.entry(posix.basename(shown)), { maxBytes, noFollow: true })
    ).bytes;
  } catch (error) {
    if (fsErrorCode(error) === 'ENOENT') return undefined;
    if (!(error instanceof RegularFileError)) throw describeFsError(error, shown);
    if (error.problem === 'missing') return undefined;
    if (error.problem === 'too_large') {
      throw new Error(
        `${shown} is ${error.size} bytes, more than patch_file handles (${maxBytes}); change it with run_command instead.`,
      );
    }
    if (error.problem === 'special' || error.problem === 'directory') {
      throw new Error(`"${shown}" is not a regular file.`);
    }
    throw error.cause === undefined ? error : describeFsError(error.cause, shown);
  } finally {
    await directory?.close();
  }
}

/** Applies find/replace edits in order; each `find` must occur exactly once. */
function replaceEach(text: string, patches: readonly FindReplace[], shown: string): string {
  let result = text;
  const crlf = text.includes('\r\n');
  for (const [index, { find: findArg, replace: replaceArg }] of patches.entries()) {
    let find = findArg;
    let replace = replaceArg;
    let count = result.split(find).length - 1;
    if (count === 0 && crlf && find.includes('\n') && !find.includes('\r')) {
      find = find.replaceAll('\n', '\r\n');
      replace = replace.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n');
      count = result.split(find).length - 1;
    }
    if (count !== 1) {
      throw new Error(
        `Patch ${index + 1} of ${patches.length} for ${shown}: the text to find ${count === 0 ? 'was not found' : `occurs ${count} times; include more surrounding lines to make it unique`}. Find must match the file exactly (whitespace included). Nothing was changed.`,
      );
    }
    const at = result.indexOf(find);
    result = result.slice(0, at) + replace + result.slice(at + find.length);
  }
  return result;
}

/** The state of the files of one patch, in memory, before anything is written. */
class PatchedFiles {
  readonly #files = new Map<string, { before: Buffer | undefined; text: string | undefined }>();

  constructor(
    private readonly targets: ReadonlyMap<string, WorkspacePath>,
    private readonly read: (shown: string) => Promise<Buffer | undefined>,
  ) {}

  /** Workspace-relative path of a path as written in the patch. */
  shown(path: string): string {
    return (this.targets.get(path) as WorkspacePath).relative;
  }

  async load(): Promise<void> {
    for (const target of this.targets.values()) {
      if (this.#files.has(target.relative)) continue;
      const before = await this.read(target.relative);
      const text = before === undefined ? undefined : textOf(before, target.relative);
      this.#files.set(target.relative, { before, text });
    }
  }

  text(path: string): string | undefined {
    return this.#files.get(this.shown(path))?.text;
  }

  set(path: string, text: string | undefined): void {
    const file = this.#files.get(this.shown(path));
    if (file !== undefined) file.text = text;
  }

  changes(): FileChange[] {
    const changes: FileChange[] = [];
    for (const [path, { before, text }] of this.#files) {
      if (before === undefined && text === undefined) continue;
      if (before !== undefined && text !== undefined && before.equals(Buffer.from(text))) continue;
      changes.push({ path, before, after: text });
    }
    return changes;
  }
}

/** Applies one file part of a diff to the files in memory; returns what it did, in words. */
function applyPart(files: PatchedFiles, part: FilePatch, budget: ComparisonBudget): string {
  const hunks = plural(part.hunks.length, 'hunk');
  const existing = (path: string): string => {
    const text = files.text(path);
    if (text === undefined) {
      throw new Error(
        `File ${part.position} of the patch changes ${files.shown(path)}, which does not exist. Check the path (list_directory, glob); to create a file, write "--- /dev/null". Nothing was changed.`,
      );
    }
    return text;
  };
  const absent = (path: string): void => {
    if (files.text(path) !== undefined) {
      throw new Error(
        `File ${part.position} of the patch creates ${files.shown(path)}, which exists already. Patch it with a "--- a/${files.shown(path)}" header instead. Nothing was changed.`,
      );
    }
  };
  switch (part.kind) {
    case 'create': {
      const to = part.to as string;
      absent(to);
      files.set(to, applyFileHunks('', part.hunks, files.shown(to), budget));
      return `created ${files.shown(to)}`;
    }
    case 'delete': {
      const from = part.from as string;
      const left = applyFileHunks(existing(from), part.hunks, files.shown(from), budget);
      if (left !== '') {
        throw new Error(
          `File ${part.position} of the patch deletes ${files.shown(from)}, but its "-" lines do not remove all of the file. List every line of the file as a "-" line. Nothing was changed.`,
        );
      }
      files.set(from, undefined);
      return `deleted ${files.shown(from)}`;
    }
    case 'modify': {
      const path = part.from as string;
      files.set(path, applyFileHunks(existing(path), part.hunks, files.shown(path), budget));
      return `modified ${files.shown(path)} (${hunks})`;
    }
    default: {
      const from = part.from as string;
      const to = part.to as string;
      const text = applyFileHunks(existing(from), part.hunks, files.shown(to), budget);
      absent(to);
      files.set(to, text);
      if (part.kind === 'rename') files.set(from, undefined);
      const verb = part.kind === 'rename' ? 'renamed' : 'copied';
      return `${verb} ${files.shown(from)} to ${files.shown(to)}${part.hunks.length === 0 ? '' : ` (${hunks})`}`;
    }
  }
}

/** Paths a part writes (and so must not be protected). */
const written = (part: FilePatch): string[] =>
  [part.to, part.kind === 'rename' || part.kind === 'delete' ? part.from : undefined].filter(
    (path): path is string => path !== undefined,
  );

/**
 * `patch_file`: applies a unified diff to workspace files, one file or several, hunks
 * matched fuzz-free (context and removed lines exactly; a hunk may sit at another line
 * than its header says). Creates, deletes, renames and copies files as the diff's
 * `/dev/null` and git headers say. All hunks of all files are applied in memory first; if
 * one does not apply, the reply names it (file, number, header, the first line that
 * differs) and nothing is written. Then each file is written atomically through its checked
 * directory, like `write_file`; a write that fails puts back the files written before it.
 * Also takes ak-coder's form, `path` with `patches: [{ find, replace }]`. Destructive and
 * not idempotent; resource keys `file:<path>` for each file the diff names, read from its
 * headers before the call runs. Refuses the `protectedPaths`.
 */
export function createPatchFileTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, maxFileBytes, protectedPaths } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'patch_file',
    title: 'Patch files',
    description:
      'Apply a unified diff (as git diff prints it) to one or more workspace files: hunks with exact context lines, "--- /dev/null" to create a file, "+++ /dev/null" to delete one. Every hunk must apply, or nothing is changed and the reply names the hunk that did not and the line that differs. Alternatively give path and patches, a list of { find, replace } edits for one file. Read the files first.',
    annotations: {
      title: 'Patch files',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    inputSchema,
    resources: (args) => {
      const plan = planOf(args as PatchFileArgs);
      const paths = Array.isArray(plan) ? patchPaths(plan) : [plan.path];
      return paths.map((path) => workspaceFileKey(workspace, path));
    },
    execute: async (args) => {
      const plan = planOf(args as PatchFileArgs);
      const parts = Array.isArray(plan) ? plan : undefined;
      const writes =
        parts === undefined ? [(plan as { path: string }).path] : parts.flatMap(written);
      const targets = new Map<string, WorkspacePath>();
      for (const path of parts === undefined ? writes : patchPaths(parts)) {
        const target = resolveInWorkspace(workspace, path);
        if (target.relative === '.') throw new Error(`"${path}" is the workspace, not a file.`);
        targets.set(path, target);
      }
      for (const path of writes) {
        refuseProtectedPath(workspace, protectedPaths, path, targets.get(path) as WorkspacePath);
      }
      const root = resolveInWorkspace(workspace, '.').root;
      const files = new PatchedFiles(targets, (shown) => readExisting(root, shown, maxFileBytes));
      await files.load();
      let done: string[];
      if (parts === undefined) {
        const { path, patches } = plan as { path: string; patches: FindReplace[] };
        const text = files.text(path);
        if (text === undefined) {
          throw new Error(
            `"${files.shown(path)}" does not exist. Check the path with list_directory or glob.`,
          );
        }
        files.set(path, replaceEach(text, patches, files.shown(path)));
        done = [`modified ${files.shown(path)} (${plural(patches.length, 'find/replace edit')})`];
      } else {
        const budget = { left: MAX_LINE_COMPARISONS };
        done = parts.map((part) => applyPart(files, part, budget));
      }
      const changes = files.changes();
      await commitFileChanges(root, changes);
      const summary = done.join('; ');
      return changes.length === 0
        ? `The patch applied but changes nothing (${summary}).`
        : `Patched ${plural(changes.length, 'file')}: ${summary}.`;
    },
  });
}
