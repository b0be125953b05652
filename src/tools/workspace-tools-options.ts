import type { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { HintgateError } from '../errors/index.js';
import { createFetchAllowList } from './fetch-allow-list.js';
import type { ResolveHost } from './guarded-get.js';
import { DEFAULT_PROTECTED_PATHS } from './protected-paths.js';
import { type DelegateOption, resolveDelegate } from './resolve-delegate.js';
import { type Embedder, resolveEmbedder } from './resolve-embedder.js';

/** Options shared by the built-in workspace tools and {@link createWorkspaceTools}. */
export interface WorkspaceToolsOptions {
  /**
   * Root directory the tools work in. File paths are relative to it and confined to it;
   * `run_command` runs here. Must exist when a tool is called.
   */
  readonly workspace: string;
  /**
   * Most characters of file text (line numbers included) `read_file` returns from one call;
   * the rest is reached with `offset`. Default 20000, which fits the runtime's default
   * `maxOutputChars` (25000); raise both together.
   */
  readonly maxReadChars?: number;
  /**
   * Largest file `edit_file` rewrites and `grep_search` searches, in bytes.
   * Default 10485760 (10 MiB).
   */
  readonly maxFileBytes?: number;
  /** Entries or paths a listing (`list_directory`, `glob`) shows at most. Default 500. */
  readonly maxListEntries?: number;
  /** Matching lines `grep_search` shows at most. Default 200. */
  readonly maxMatches?: number;
  /**
   * Milliseconds `grep_search` spends matching before it stops and returns what it found so
   * far, saying the result may be incomplete. The matching runs in a worker thread, which is
   * also stopped when the call is cancelled or times out. Default 30000.
   */
  readonly searchTimeoutMs?: number;
  /**
   * Timeout of `run_command` when the call gives no `timeout_ms`, in milliseconds.
   * Default 120000.
   */
  readonly commandTimeoutMs?: number;
  /** Shell that runs commands as `<shell> -c <command>`. Default `/bin/sh`. */
  readonly shell?: string;
  /** Environment of commands. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Bytes of stdout and of stderr `run_command` keeps each (the start and the end; the
   * middle of longer output is cut). Default 10000.
   */
  readonly maxCommandOutputBytes?: number;
  /** Starts processes for `run_command`. Default `spawn` of `node:child_process`. */
  readonly spawn?: typeof spawn;
  /**
   * Private and special-use addresses `web_fetch` may reach all the same. By default it
   * refuses every address that is not public: loopback, private, link-local (cloud metadata
   * services), unique-local, carrier-grade NAT, unspecified, multicast, reserved and
   * documentation ranges, and IPv6 forms that carry such an IPv4 address. An entry is an
   * IP address (`127.0.0.1`, `::1`), a CIDR range (`10.0.0.0/8`, `fd00::/8`), a host name
   * (`localhost`, `dev.internal`: reached whatever it resolves to) or `*.` and a domain
   * (`*.corp.example`). Default none.
   */
  readonly fetchAllow?: readonly string[];
  /**
   * How `web_fetch` resolves host names; every answer is checked and the connection goes
   * only to checked answers. Default `dns.lookup` with `all: true`.
   */
  readonly resolveHost?: ResolveHost;
  /** Timeout of one `web_fetch` (all redirects included), in milliseconds. Default 30000. */
  readonly fetchTimeoutMs?: number;
  /**
   * Paths that `write_file` and `edit_file` refuse to change, with everything under them:
   * hintgate's own state and configuration. Relative to the workspace, or absolute; symbolic
   * links are resolved on both sides. Default `['.hintgate']`, where `hintgate serve` keeps
   * "always" approvals; giving the option replaces the default, so list `.hintgate` too.
   */
  readonly protectedPaths?: readonly string[];
  /**
   * Also offer `edit_file` and `run_command` under ak-coder's names, `str_replace` and
   * `bash`, so prompts written for ak-coder work unchanged; rules and approvals of the
   * originals apply to them. Default true.
   */
  readonly aliases?: boolean;
  /**
   * Embeds chunks for `index_workspace` and queries for `semantic_search`, which then ranks
   * by meaning: a function `(texts, { signal }) => vectors`, an AI SDK embedding model
   * (`openai.embedding('text-embedding-3-small')`), or `{ embed, id?, local?, batchSize? }`.
   * Default none: `semantic_search` ranks lexically and says so.
   */
  readonly embedder?: Embedder;
  /** Lines per chunk of the workspace index. Default 30. */
  readonly indexChunkLines?: number;
  /** Files larger than this are left out of the workspace index, in bytes. Default 1048576. */
  readonly indexMaxFileBytes?: number;
  /** Files the workspace index holds at most. Default 10000. */
  readonly indexMaxFiles?: number;
  /**
   * The sub-agent `delegate_task` hands tasks to: a function of the task, or
   * `{ command: [program, ...args] }` (another agent CLI, run in the workspace), with
   * `timeoutMs` and `maxOutputBytes`. Default none: there is no `delegate_task`.
   */
  readonly delegate?: DelegateOption;
}

/** Defaults of the optional fields of {@link WorkspaceToolsOptions}. */
export const WORKSPACE_TOOL_DEFAULTS = Object.freeze({
  maxReadChars: 20_000,
  maxFileBytes: 10 * 1024 * 1024,
  maxListEntries: 500,
  maxMatches: 200,
  searchTimeoutMs: 30_000,
  commandTimeoutMs: 120_000,
  shell: '/bin/sh',
  maxCommandOutputBytes: 10_000,
  fetchTimeoutMs: 30_000,
  indexChunkLines: 30,
  indexMaxFileBytes: 1024 * 1024,
  indexMaxFiles: 10_000,
} as const);

/** {@link WorkspaceToolsOptions} with defaults filled in and the workspace made absolute. */
export type ResolvedWorkspaceToolsOptions = Required<Omit<WorkspaceToolsOptions, OptionalOption>> &
  Pick<WorkspaceToolsOptions, OptionalOption>;

/** Options that stay optional once resolved. */
type OptionalOption = 'env' | 'resolveHost' | 'spawn' | 'embedder' | 'delegate';

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `createWorkspaceTools: ${message}`);
};

/**
 * Checks the options of the workspace tools and fills in defaults.
 *
 * @throws HintgateError `invalid_option` when the workspace is not an existing directory,
 * a limit is not a positive integer, an entry of `fetchAllow` is no address, range or name,
 * or `embedder` or `delegate` is malformed.
 */
export function resolveWorkspaceToolsOptions(
  options: WorkspaceToolsOptions,
): ResolvedWorkspaceToolsOptions {
  if (typeof options !== 'object' || options === null) {
    invalid('expects one options object, e.g. createWorkspaceTools({ workspace: process.cwd() }).');
  }
  if (typeof options.workspace !== 'string' || options.workspace === '') {
    invalid('workspace must be the path of a directory.');
  }
  const workspace = resolve(options.workspace);
  let isDirectory = false;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    // Reported below, with the path.
  }
  if (!isDirectory) invalid(`workspace "${workspace}" is not an existing directory.`);
  const resolved = { ...WORKSPACE_TOOL_DEFAULTS, ...options, workspace };
  for (const key of Object.keys(
    WORKSPACE_TOOL_DEFAULTS,
  ) as (keyof typeof WORKSPACE_TOOL_DEFAULTS)[]) {
    const value = resolved[key];
    if (key === 'shell') {
      if (typeof value !== 'string' || value === '') invalid('shell must be a program path.');
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      invalid(`${key} must be a positive integer.`);
    }
  }
  if (options.resolveHost !== undefined && typeof options.resolveHost !== 'function') {
    invalid('resolveHost must be a function from a host name to its addresses.');
  }
  if ((options as { fetch?: unknown }).fetch !== undefined) {
    invalid(
      'fetch is no longer an option: web_fetch makes its own connections so that it can check the address it reaches. Use fetchAllow to let it reach private addresses, resolveHost to resolve names.',
    );
  }
  try {
    createFetchAllowList(options.fetchAllow);
  } catch (error) {
    invalid((error as Error).message);
  }
  if (options.spawn !== undefined && typeof options.spawn !== 'function') {
    invalid('spawn must be a function like spawn of node:child_process.');
  }
  const protectedPaths = options.protectedPaths ?? DEFAULT_PROTECTED_PATHS;
  if (
    !Array.isArray(protectedPaths) ||
    protectedPaths.some((p) => typeof p !== 'string' || p === '' || p.includes('\0'))
  ) {
    invalid('protectedPaths must be an array of paths (relative to the workspace, or absolute).');
  }
  if (options.aliases !== undefined && typeof options.aliases !== 'boolean') {
    invalid('aliases must be true or false.');
  }
  resolveEmbedder(options.embedder);
  resolveDelegate(options.delegate);
  return {
    ...resolved,
    aliases: options.aliases ?? true,
    protectedPaths: Object.freeze([...protectedPaths]),
    fetchAllow: Object.freeze([...(options.fetchAllow ?? [])]),
  };
}
