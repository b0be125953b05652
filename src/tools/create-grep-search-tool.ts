import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import type { Tool } from '../tool/index.js';
import { defineTool, READ_ONLY } from '../tool/index.js';
import { compileModelGlob } from './compile-model-glob.js';
import { type GrepFile, grepFiles } from './grep-worker.js';
import { LineBudget } from './line-budget.js';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';
import { searchResourceKeys } from './search-resource-keys.js';
import { type WalkedFile, walkWorkspaceFiles } from './walk-workspace-files.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type GrepArgs = { pattern: string; path?: string; glob?: string; case_insensitive?: boolean };

/** Characters of one matching line shown at most. */
export const MAX_MATCH_LINE_CHARS = 300;
/** Characters at the start of a line the expression is tested on; the rest is not searched. */
export const MAX_TESTED_LINE_CHARS = 4000;
const MAX_OUTPUT_CHARS = 20_000;

const inputSchema = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      description:
        'JavaScript regular expression searched for in each line, e.g. "function\\\\s+main" or "TODO|FIXME".',
    },
    path: {
      type: 'string',
      description:
        'Directory or file to search, relative to the workspace root. Default: the root.',
    },
    glob: {
      type: 'string',
      description:
        'Only search files matching this glob: "*.ts" (by file name, at any depth) or "src/**/*.ts" (by path under `path`).',
    },
    case_insensitive: {
      type: 'boolean',
      default: false,
      description: 'Ignore letter case. Default false.',
    },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

/**
 * `grep_search`: lines of workspace files that match a regular expression, as
 * `path:line:text`, skipping what `.gitignore` ignores, `.git`, binary files and files over
 * `maxFileBytes`; at most `maxMatches` lines (each cut to {@link MAX_MATCH_LINE_CHARS}
 * characters) with a count of the rest. Read-only; resource keys as for `glob`.
 */
export function createGrepSearchTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, maxMatches, maxFileBytes, searchTimeoutMs } =
    resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'grep_search',
    title: 'Search file contents',
    description:
      'Search the contents of workspace files with a regular expression. Returns matching lines as "path:line:text" (paths relative to the workspace root). Files ignored by .gitignore, the .git directory and binary files are skipped; only the first 4000 characters of a line are searched. Narrow with path (a directory or file) and glob (e.g. "*.py").',
    annotations: { title: 'Search file contents', ...READ_ONLY },
    inputSchema,
    resources: (args) => searchResourceKeys(workspace, (args as GrepArgs).path),
    // What a person approves is the directory searched, not the ignore files read with it.
    approvalKey: (args) => workspaceFileKey(workspace, (args as GrepArgs).path),
    execute: async (args, { signal }) => {
      const { pattern, path = '.', glob, case_insensitive = false } = args as GrepArgs;
      const flags = case_insensitive ? 'i' : '';
      try {
        new RegExp(pattern, flags);
      } catch (error) {
        throw new Error(
          `"${pattern}" is not a valid JavaScript regular expression (${(error as Error).message}). Escape special characters such as ( [ { . * + ? with a backslash to match them literally.`,
        );
      }
      const target = resolveInWorkspace(workspace, path);
      const info = await stat(target.absolute).catch(() => undefined);
      if (info === undefined) {
        throw new Error(`"${target.relative}" does not exist. Check the path with list_directory.`);
      }
      // A glob without "/" is matched against the file's name, at any depth.
      const globMatches = glob === undefined ? undefined : compileModelGlob(glob, glob);
      const inGlob =
        globMatches === undefined
          ? () => true
          : glob?.includes('/') === true
            ? globMatches
            : (file: string) => globMatches(posix.basename(file));
      const prefix = target.relative === '.' ? '' : `${target.relative}/`;

      // The walk (and .gitignore) runs here; the matching, which a pattern can make take
      // forever, runs in a worker that is stopped at the call's abort or the time budget.
      const files: GrepFile[] = [];
      const collect = (file: WalkedFile): boolean => {
        if (!inGlob(file.path.slice(prefix.length))) return true;
        if (!file.symlink) {
          files.push({ path: file.path, absolute: file.absolute });
          return true;
        }
        try {
          files.push({
            path: file.path,
            absolute: resolveInWorkspace(workspace, file.path).absolute,
          });
        } catch {
          // A link that leaves the workspace is not searched.
        }
        return true;
      };
      let complete = true;
      if (info.isDirectory()) {
        complete = (
          await walkWorkspaceFiles(
            { root: resolveInWorkspace(workspace, '.').absolute, base: target.absolute, signal },
            collect,
          )
        ).complete;
      } else {
        collect({ path: target.relative, absolute: target.absolute, symlink: false });
      }
      const found = await grepFiles(
        {
          pattern,
          flags,
          files,
          maxFileBytes,
          maxLines: maxMatches,
          maxTestedChars: MAX_TESTED_LINE_CHARS,
          excerptChars: MAX_MATCH_LINE_CHARS,
        },
        { signal, timeBudgetMs: searchTimeoutMs },
      );
      const budget = new LineBudget(maxMatches, MAX_OUTPUT_CHARS);
      for (const match of found.lines) budget.add(`${match.path}:${match.line}:${match.text}`);
      budget.omitted += found.more;
      const counts = found;
      const total = budget.lines.length + budget.omitted;
      const skipped = [
        counts.binary > 0 ? `${counts.binary} binary` : '',
        counts.large > 0 ? `${counts.large} over ${maxFileBytes} bytes` : '',
      ].filter((s) => s !== '');
      const searched = `${counts.files} file${counts.files === 1 ? '' : 's'} searched${skipped.length > 0 ? `, skipped ${skipped.join(' and ')}` : ''}`;
      const lines = [...budget.lines];
      if (total === 0) {
        lines.push(
          `No matches for /${pattern}/${case_insensitive ? 'i' : ''} under ${target.relative}${glob === undefined ? '' : ` in files matching "${glob}"`} (${searched}; .gitignore'd files are skipped).`,
        );
      } else if (budget.omitted > 0) {
        lines.push(
          `[Showing ${budget.lines.length} of ${total} matching lines (in ${counts.matchedFiles} files; ${searched}). Narrow the pattern, path or glob to see the rest.]`,
        );
      } else {
        lines.push(
          `[${total} matching line${total === 1 ? '' : 's'} in ${counts.matchedFiles} file${counts.matchedFiles === 1 ? '' : 's'}; ${searched}.]`,
        );
      }
      if (found.outOfTime) {
        lines.push(
          `[The search stopped after ${searchTimeoutMs} ms, so results may be incomplete (${files.length} files to search). A pattern with nested repetition, such as (a+)+, can take exponential time on some lines: simplify it, or narrow path or glob.]`,
        );
      }
      if (!complete) {
        lines.push(
          '[The search stopped early because the tree is very large; results may be incomplete. Search a subdirectory.]',
        );
      }
      return lines.join('\n');
    },
  });
}
