import { basename, isAbsolute } from 'node:path';
import type { ApprovalKeys, CallToolResult, Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import { judgeCommandLine } from './check-command-safety.js';
import { approvalKeysWith } from './command-approval-keys.js';
import { expandCommands } from './expand-commands.js';
import { keysOfLine } from './keys-of-line.js';
import { type BashGrammar, loadBashGrammar, loadedBashGrammar } from './load-bash-grammar.js';
import { commandTooLong, MAX_COMMAND_LENGTH } from './max-command-length.js';
import { resolveInWorkspace } from './resolve-in-workspace.js';
import { runShellCommand, type ShellCommandOutcome } from './run-shell-command.js';
import { READ_SHELLS } from './shell-runners.js';
import type { ExpandedLine } from './shell-syntax.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type RunCommandArgs = { command: string; timeout_ms?: number };

/** Command lines whose reading a tool keeps, for the safety gate of the same call. */
const RECENT_LINES = 8;

/** Longest timeout a call may ask for, in milliseconds. */
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

const inputSchema = {
  type: 'object',
  properties: {
    command: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_COMMAND_LENGTH,
      description: `Shell command line, run with /bin/sh -c in the workspace root, e.g. "npm test" or "git status && git diff --stat". Nothing can be typed into it: stdin is closed, so use non-interactive flags. At most ${MAX_COMMAND_LENGTH} characters: write longer scripts to a file first.`,
    },
    timeout_ms: {
      type: 'integer',
      minimum: 1000,
      maximum: MAX_COMMAND_TIMEOUT_MS,
      description: `Milliseconds before the command is killed. Default 120000, at most ${MAX_COMMAND_TIMEOUT_MS}.`,
    },
  },
  required: ['command'],
  additionalProperties: false,
} as const;

const section = (name: string, text: string): string =>
  text === '' ? '' : `--- ${name} ---\n${text.endsWith('\n') ? text : `${text}\n`}`;

const report = (
  command: string,
  outcome: ShellCommandOutcome,
  timeoutMs: number,
): CallToolResult => {
  const status = outcome.timedOut
    ? `[timed out after ${timeoutMs} ms; the command and its child processes were killed. Give a larger timeout_ms (at most ${MAX_COMMAND_TIMEOUT_MS}) or run something shorter.]`
    : outcome.exitCode === null
      ? `[killed by ${outcome.signal ?? 'a signal'}]`
      : `[exit code ${outcome.exitCode}]`;
  const output = section('stdout', outcome.stdout) + section('stderr', outcome.stderr);
  const text = `$ ${command}\n${status}\n${output === '' ? '(no output)\n' : output}`.trimEnd();
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      timedOut: outcome.timedOut,
      durationMs: outcome.durationMs,
    },
    isError: outcome.timedOut || outcome.exitCode !== 0,
  };
};

/**
 * `run_command`: runs a shell command line in the workspace root and returns its exit code,
 * stdout and stderr (each cut to its head and tail past `maxCommandOutputBytes`). A
 * non-zero exit is a normal result with `isError: true`. Plainly dangerous commands are
 * refused before anything runs (`checkCommandSafety`); the command is killed, with its
 * children, at its timeout or when the call is cancelled. Destructive, not idempotent, open
 * world. Resource key `file:` (the whole workspace: it is ordered against every file
 * operation); approval keys per command, program and subcommand, with the parts of the line
 * that are not fully understood (`commandApprovalKeys`). The bash grammar starts loading when
 * the tool is created; a call decided before it is ready waits for it. A line longer than
 * `MAX_COMMAND_LENGTH` is refused.
 */
export function createRunCommandTool(options: WorkspaceToolsOptions): Tool {
  const resolved = resolveWorkspaceToolsOptions(options);
  const { workspace, commandTimeoutMs, shell, maxCommandOutputBytes } = resolved;
  // Load the grammar now, so that the first call rarely waits for it; a failure shows there.
  void loadBashGrammar().catch(() => {});
  const shellName = basename(shell);
  // The line read for a call's keys is read again by the safety gate when it runs: keep the
  // last few so that one call reads its line once.
  const recent = new Map<string, ExpandedLine>();
  const expand = (grammar: BashGrammar, command: string): ExpandedLine => {
    let line = recent.get(command);
    if (line === undefined) {
      line = expandCommands(grammar, command);
      recent.set(command, line);
      if (recent.size > RECENT_LINES) recent.delete(recent.keys().next().value as string);
    }
    return line;
  };
  const keysOf = (grammar: BashGrammar, command: string): ApprovalKeys => {
    const read =
      commandTooLong(command) === undefined
        ? keysOfLine(expand(grammar, command), workspace)
        : approvalKeysWith(grammar, command, workspace);
    if (READ_SHELLS.has(shellName)) return read;
    // The grammar reads sh and bash; another shell may give the same text another meaning.
    const other = {
      reason: `commands run with ${shell}, whose syntax is read as sh's`,
      hidesCommand: true,
    };
    return { keys: read.keys, opaque: [...read.opaque, other] };
  };
  return defineTool({
    name: 'run_command',
    title: 'Run command',
    description:
      'Run a shell command in the workspace root (non-interactive: stdin is closed) and get its exit code, stdout and stderr; long output keeps its start and end. A non-zero exit code is reported as an error with the output. Use it for builds, tests, git and other programs; prefer read_file, glob and grep_search for reading and searching. Plainly destructive commands (rm -rf /, mkfs, curl | sh, ...) are refused. Background processes are stopped when the command ends.',
    annotations: {
      title: 'Run command',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    inputSchema,
    resources: () => ['file:'],
    approvalKey: (args) => {
      const { command } = args as RunCommandArgs;
      const grammar = loadedBashGrammar();
      return grammar === undefined
        ? loadBashGrammar().then((loaded) => keysOf(loaded, command))
        : keysOf(grammar, command);
    },
    // Above the longest timeout a call may ask for: the tool stops the command itself and
    // reports its output, rather than the runtime cutting it off.
    timeoutMs: MAX_COMMAND_TIMEOUT_MS + 10_000,
    execute: async (args, { signal }) => {
      const { command, timeout_ms: timeoutMs = commandTimeoutMs } = args as RunCommandArgs;
      const cwd = resolveInWorkspace(workspace, '.').absolute;
      const env = resolved.env ?? process.env;
      const home = env.HOME;
      const tooLong = commandTooLong(command);
      if (tooLong !== undefined) {
        throw new Error(`Refused to run the command: ${tooLong}. Nothing was run.`);
      }
      const danger = judgeCommandLine(expand(await loadBashGrammar(), command), {
        workspace: cwd,
        ...(home !== undefined && isAbsolute(home) ? { home } : {}),
      });
      if (danger !== undefined) {
        throw new Error(
          `Refused to run ${JSON.stringify(command)}: ${danger}. Nothing was run. Do not retry it in another form; if it is really needed, ask the user to run it themselves.`,
        );
      }
      const outcome = await runShellCommand({
        command,
        shell,
        cwd,
        env,
        timeoutMs,
        maxOutputBytes: maxCommandOutputBytes,
        signal,
        ...(resolved.spawn === undefined ? {} : { spawn: resolved.spawn }),
      });
      return report(command, outcome, timeoutMs);
    },
  });
}
