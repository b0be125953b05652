import { readFile, stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import type { Tool } from '../tool/tool.js';
import { LineBudget } from './line-budget.js';
import { looksBinary } from './looks-binary.js';
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

/** The line, or a window of it around the match when it is long. */
const excerpt = (line: string, index: number): string => {
  if (line.length <= MAX_MATCH_LINE_CHARS) return line;
  const start = Math.max(0, Math.min(index - 100, line.length - MAX_MATCH_LINE_CHARS));
  const head = start > 0 ? '…' : '';
  const tail = start + MAX_MATCH_LINE_CHARS < line.length ? '…' : '';
  return `${head}${line.slice(start, start + MAX_MATCH_LINE_CHARS)}${tail}`;
};

/**
 * `grep_search`: lines of workspace files that match a regular expression, as
 * `path:line:text`, skipping what `.gitignore` ignores, `.git`, binary files and files over
 * `maxFileBytes`; at most `maxMatches` lines (each cut to {@link MAX_MATCH_LINE_CHARS}
 * characters) with a count of the rest. Read-only; resource keys as for `glob`.
 */
export function createGrepSearchTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, maxMatches, maxFileBytes } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'grep_search',
    title: 'Search file contents',
    description:
      'Search the contents of workspace files with a regular expression. Returns matching lines as "path:line:text" (paths relative to the workspace root). Files ignored by .gitignore, the .git directory and binary files are skipped. Narrow with path (a directory or file) and glob (e.g. "*.py").',
    annotations: { title: 'Search file contents', ...READ_ONLY },
    inputSchema,
    resources: (args) => searchResourceKeys(workspace, (args as GrepArgs).path),
    // What a person approves is the directory searched, not the ignore files read with it.
    approvalKey: (args) => workspaceFileKey(workspace, (args as GrepArgs).path),
    execute: async (args, { signal }) => {
      const { pattern, path = '.', glob, case_insensitive = false } = args as GrepArgs;
      let regex: RegExp;
      try {
        regex = new RegExp(pattern, case_insensitive ? 'i' : '');
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
      const inGlob =
        glob === undefined ? () => true : picomatch(glob, { dot: true, basename: true });
      const prefix = target.relative === '.' ? '' : `${target.relative}/`;
      const budget = new LineBudget(maxMatches, MAX_OUTPUT_CHARS);
      const counts = { files: 0, matchedFiles: 0, binary: 0, large: 0 };

      const search = async (file: WalkedFile): Promise<boolean> => {
        if (!inGlob(file.path.slice(prefix.length))) return true;
        let absolute = file.absolute;
        if (file.symlink) {
          try {
            absolute = resolveInWorkspace(workspace, file.path).absolute;
          } catch {
            return true; // A link that leaves the workspace is not searched.
          }
        }
        const size = await stat(absolute).then(
          (s) => (s.isFile() ? s.size : -1),
          () => -1,
        );
        if (size < 0) return true;
        if (size > maxFileBytes) {
          counts.large += 1;
          return true;
        }
        const bytes = await readFile(absolute).catch(() => undefined);
        if (bytes === undefined) return true;
        if (looksBinary(bytes)) {
          counts.binary += 1;
          return true;
        }
        counts.files += 1;
        const lines = bytes.toString('utf8').split('\n');
        let matched = false;
        for (let i = 0; i < lines.length; i += 1) {
          const line = (lines[i] ?? '').replace(/\r$/, '');
          const match = regex.exec(line);
          if (match === null) continue;
          matched = true;
          budget.add(`${file.path}:${i + 1}:${excerpt(line, match.index)}`);
        }
        if (matched) counts.matchedFiles += 1;
        return true;
      };

      let complete = true;
      if (info.isDirectory()) {
        complete = (
          await walkWorkspaceFiles(
            { root: resolveInWorkspace(workspace, '.').absolute, base: target.absolute, signal },
            search,
          )
        ).complete;
      } else {
        await search({ path: target.relative, absolute: target.absolute, symlink: false });
      }
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
      if (!complete) {
        lines.push(
          '[The search stopped early because the tree is very large; results may be incomplete. Search a subdirectory.]',
        );
      }
      return lines.join('\n');
    },
  });
}
