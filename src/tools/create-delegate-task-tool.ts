import { HintgateError } from '../errors/index.js';
import type { CallToolResult, Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import { OutputCapture } from './output-capture.js';
import {
  DELEGATE_DEPTH_VARIABLE,
  type DelegateTask,
  PROMPT_PLACEHOLDER,
  resolveDelegate,
} from './resolve-delegate.js';
import { resolveInWorkspace } from './resolve-in-workspace.js';
import { runSubAgentCommand } from './run-sub-agent-command.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type DelegateArgs = { role: string; taskPrompt: string; filesToInclude?: string[] };

const inputSchema = {
  type: 'object',
  properties: {
    role: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The role of the sub-agent, e.g. "Security Auditor" or "Test Runner".',
    },
    taskPrompt: {
      type: 'string',
      minLength: 1,
      maxLength: 100_000,
      description:
        'The complete instructions and objective of the task: the sub-agent sees nothing of this conversation.',
    },
    filesToInclude: {
      type: 'array',
      maxItems: 100,
      items: { type: 'string', minLength: 1 },
      description: 'Workspace-relative paths of files the sub-agent should start from.',
    },
  },
  required: ['role', 'taskPrompt'],
  additionalProperties: false,
} as const;

/** The prompt a sub-agent receives. */
const promptOf = (role: string, taskPrompt: string, files: readonly string[]): string =>
  [
    `You are a sub-agent with the role: ${role}.`,
    'You work in the current directory, which is the workspace.',
    '',
    'Task:',
    taskPrompt,
    ...(files.length === 0
      ? []
      : ['', 'Files to start from (relative to the workspace):', ...files.map((f) => `- ${f}`)]),
    '',
    'When you are done, reply with a direct and complete summary of what you found or changed.',
  ].join('\n');

/** Text of what a sub-agent function returned. */
const answerText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const text = (value as { text?: unknown } | null)?.text;
  if (typeof text === 'string') return text;
  return value === undefined ? '' : (JSON.stringify(value) ?? String(value));
};

/** `text` cut like command output: its start and its end within `maxBytes`. */
const capped = (text: string, maxBytes: number): string => {
  const capture = new OutputCapture(maxBytes);
  capture.push(Buffer.from(text, 'utf8'));
  return capture.text();
};

/** How deep this process runs as a sub-agent (0 at the top). */
const currentDepth = (): number => {
  const value = Number.parseInt(process.env[DELEGATE_DEPTH_VARIABLE] ?? '0', 10);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
};

/**
 * `delegate_task`: hands a task to a sub-agent the host supplies (`delegate` of the
 * workspace tools): a function, or a command such as another agent CLI run in the
 * workspace root in its own process group, its prompt on standard input or in place of a
 * `{prompt}` argument. Returns the sub-agent's answer, its start and end kept past
 * `maxOutputBytes`. Cancelling or timing out the call stops the sub-agent: a function sees
 * its signal abort, a command's whole process group is killed. Open world (it acts beyond
 * this call's view), not read-only, destructive and not idempotent (the sub-agent may change
 * anything); resource key `file:` like `run_command`.
 *
 * @throws HintgateError `invalid_option` when `delegate` is missing or malformed.
 */
export function createDelegateTaskTool(options: WorkspaceToolsOptions): Tool {
  const resolved = resolveWorkspaceToolsOptions(options);
  const delegate = resolveDelegate(resolved.delegate);
  if (delegate === undefined) {
    throw new HintgateError(
      'invalid_option',
      'createDelegateTaskTool: give delegate, the sub-agent to hand tasks to: a function, or { command: [program, ...args] }.',
    );
  }
  const { workspace } = resolved;
  return defineTool({
    name: 'delegate_task',
    title: 'Delegate task',
    description:
      "Hand a self-contained task to a sub-agent with its own role, and get its findings back. The sub-agent works in this workspace and may read and change files and run commands; it sees nothing of this conversation, so give it complete instructions. Use it for work that can be described and done apart; the sub-agent's answer is cut if very long.",
    annotations: {
      title: 'Delegate task',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    inputSchema,
    resources: () => ['file:'],
    timeoutMs: delegate.timeoutMs,
    execute: async (args, { signal }): Promise<CallToolResult> => {
      const { role, taskPrompt, filesToInclude = [] } = args as DelegateArgs;
      const files = filesToInclude.map((path) => resolveInWorkspace(workspace, path).relative);
      const prompt = promptOf(role, taskPrompt, files);
      const task: DelegateTask = { role, taskPrompt, filesToInclude: files, prompt };
      const head = `[Sub-agent "${role}"`;
      if (delegate.run !== undefined) {
        const answer = await delegate.run(task, { signal, workspace });
        signal.throwIfAborted();
        const text = capped(answerText(answer), delegate.maxOutputBytes);
        return { content: [{ type: 'text', text: `${head} finished]\n${text}` }] };
      }
      const depth = currentDepth();
      if (depth >= delegate.maxDepth) {
        throw new Error(
          `Refused: this agent is itself a sub-agent ${depth} levels deep, and sub-agents may nest at most ${delegate.maxDepth} deep. Do the task here instead.`,
        );
      }
      const command = delegate.command as readonly string[];
      const placed = command.includes(PROMPT_PLACEHOLDER);
      const outcome = await runSubAgentCommand({
        argv: command.map((part) => (part === PROMPT_PLACEHOLDER ? prompt : part)),
        ...(placed ? {} : { input: prompt }),
        cwd: resolveInWorkspace(workspace, '.').absolute,
        env: {
          ...(delegate.env ?? resolved.env ?? process.env),
          [DELEGATE_DEPTH_VARIABLE]: String(depth + 1),
        },
        maxOutputBytes: delegate.maxOutputBytes,
        signal,
        ...(resolved.spawn === undefined ? {} : { spawn: resolved.spawn }),
      }).catch((error: unknown) => {
        if (signal.aborted) throw error;
        throw new Error(
          `The sub-agent command ${JSON.stringify(command[0])} could not be started (${(error as Error).message}). Nothing was delegated; tell the user to check the delegate command of the tools.`,
          { cause: error },
        );
      });
      const ended =
        outcome.exitCode === null
          ? `was killed by ${outcome.signal ?? 'a signal'}`
          : outcome.exitCode === 0
            ? 'finished'
            : `failed with exit code ${outcome.exitCode}`;
      const stderr = outcome.stderr.trim() === '' ? '' : `\n--- stderr ---\n${outcome.stderr}`;
      const answer =
        outcome.stdout.trim() === '' ? '(no answer on standard output)' : outcome.stdout;
      return {
        content: [{ type: 'text', text: `${head} ${ended}]\n${answer}${stderr}`.trimEnd() }],
        structuredContent: { exitCode: outcome.exitCode, signal: outcome.signal },
        isError: outcome.exitCode !== 0,
      };
    },
  });
}
