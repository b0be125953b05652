import { stat } from 'node:fs/promises';
import { isAbsolute, posix } from 'node:path';
import picomatch from 'picomatch';
import type { Tool } from '../tool/index.js';
import { defineTool, READ_ONLY } from '../tool/index.js';
import { compileModelGlob } from './compile-model-glob.js';
import { LineBudget } from './line-budget.js';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';
import { searchResourceKeys } from './search-resource-keys.js';
import { walkWorkspaceFiles } from './walk-workspace-files.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type GlobArgs = { pattern: string; path?: string };

/** Characters of output a listing keeps at most, below the runtime's default cap. */
const MAX_OUTPUT_CHARS = 20_000;

const inputSchema = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      description:
        'Glob matched against paths relative to `path`: "**/*.ts" (any depth), "src/*.json" (one level), "*.{js,mjs}". A pattern without "/" matches only directly in `path`.',
    },
    path: {
      type: 'string',
      description: 'Directory to search, relative to the workspace root. Default: the root.',
    },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

/** Where a glob starts: `path` joined with the pattern's literal leading directories. */
const splitPattern = (pattern: string, path: string | undefined) => {
  const scan = picomatch.scan(pattern);
  const directory = posix.join(path ?? '.', scan.isGlob ? scan.base : '.');
  return { scan, directory };
};

/**
 * `glob`: workspace files whose path matches a glob, in path order, skipping what
 * `.gitignore` files ignore and `.git`; at most `maxListEntries` paths with a count of the
 * rest. Read-only; resource keys: the directory searched and the `.gitignore` files above it.
 */
export function createGlobTool(options: WorkspaceToolsOptions): Tool {
  const { workspace, maxListEntries } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'glob',
    title: 'Find files',
    description:
      'Find files in the workspace by glob pattern, e.g. "**/*.test.ts" or "src/**/index.{js,ts}". Returns matching file paths relative to the workspace root, sorted. Files ignored by .gitignore and the .git directory are skipped. Use grep_search to search file contents.',
    annotations: { title: 'Find files', ...READ_ONLY },
    inputSchema,
    resources: (args) => {
      const { pattern, path } = args as GlobArgs;
      return searchResourceKeys(workspace, splitPattern(pattern, path).directory);
    },
    // What a person approves is the directory searched, not the ignore files read with it.
    approvalKey: (args) => {
      const { pattern, path } = args as GlobArgs;
      return workspaceFileKey(workspace, splitPattern(pattern, path).directory);
    },
    execute: async (args, { signal }) => {
      const { pattern, path } = args as GlobArgs;
      if (isAbsolute(pattern) || pattern.startsWith('!')) {
        throw new Error(
          `The pattern "${pattern}" must be a positive glob relative to the searched directory, such as "**/*.ts"; give the directory as "path".`,
        );
      }
      const { scan, directory } = splitPattern(pattern, path);
      const target = resolveInWorkspace(workspace, directory);
      const info = target.exists ? await stat(target.absolute) : undefined;
      if (!scan.isGlob) {
        // A plain path: it matches itself when it is a file.
        return info?.isFile() === true ? target.relative : `No file matches "${pattern}".`;
      }
      if (info === undefined || !info.isDirectory()) {
        return `No files match "${pattern}": "${target.relative}" is not a directory of the workspace.`;
      }
      const root = resolveInWorkspace(workspace, '.').absolute;
      const matches = compileModelGlob(pattern, scan.glob);
      const prefix = target.relative === '.' ? '' : `${target.relative}/`;
      const budget = new LineBudget(maxListEntries, MAX_OUTPUT_CHARS);
      const outcome = await walkWorkspaceFiles({ root, base: target.absolute, signal }, (file) => {
        if (matches(file.path.slice(prefix.length))) budget.add(file.path);
        return true;
      });
      const found = budget.lines.length + budget.omitted;
      const lines = [...budget.lines];
      if (found === 0) {
        const hint = pattern.includes('/')
          ? ''
          : ` A pattern without "/" matches only directly in the directory; try "**/${pattern}" to search subdirectories.`;
        lines.push(
          `No files match "${pattern}" under ${target.relative} (files ignored by .gitignore are skipped).${hint}`,
        );
      } else if (budget.omitted > 0) {
        lines.push(
          `[Showing ${budget.lines.length} of ${found} matching files; ${budget.omitted} more not shown. Narrow the pattern or path to see them.]`,
        );
      }
      if (!outcome.complete) {
        lines.push(
          '[The search stopped early because the tree is very large; results may be incomplete. Search a subdirectory.]',
        );
      }
      return lines.join('\n');
    },
  });
}
