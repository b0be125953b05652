import { HintgateError } from '../errors/index.js';
import { isPlainObject, isTimerMs, MAX_TIMER_MS } from '../tool/index.js';

/** A task as `delegate_task` hands it to the sub-agent. */
export interface DelegateTask {
  /** The role the sub-agent takes ("Security Auditor"), as the model gave it. */
  readonly role: string;
  /** The task, as the model gave it. */
  readonly taskPrompt: string;
  /** Files the model wants the sub-agent to start from, workspace-relative, checked to lie inside it. */
  readonly filesToInclude: readonly string[];
  /** The prompt made of the three, as a command sub-agent receives it. */
  readonly prompt: string;
}

/** What a sub-agent function gets besides the task. */
export interface DelegateContext {
  /** Aborts when the call is cancelled or times out: stop the sub-agent then. */
  readonly signal: AbortSignal;
  /** Absolute path of the workspace the sub-agent works in. */
  readonly workspace: string;
}

/**
 * A sub-agent supplied by the host: runs the task and returns its answer, a string (or
 * `{ text }`; anything else is shown as JSON). It should stop when `signal` aborts.
 */
export type DelegateFunction = (task: DelegateTask, context: DelegateContext) => unknown;

/** The sub-agent of `delegate_task`, with settings. Give `run` or `command`. */
export interface DelegateSettings {
  /** A sub-agent function. */
  readonly run?: DelegateFunction;
  /**
   * A sub-agent command, such as another agent CLI, run in the workspace root in its own
   * process group (no shell): program and arguments. An argument that is exactly
   * `{prompt}` is replaced by the task's prompt; without one, the prompt is written to its
   * standard input. Example: `['claude', '-p', '{prompt}']`, `['codex', 'exec', '-']`.
   */
  readonly command?: readonly string[];
  /** Environment of the command. Default: the workspace tools' `env`, else `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long a sub-agent may take, in milliseconds. Default 600000 (10 minutes). */
  readonly timeoutMs?: number;
  /**
   * Bytes of the sub-agent's answer kept (its start and its end; the middle of a longer one
   * is cut). Default 20000.
   */
  readonly maxOutputBytes?: number;
  /**
   * How deep command sub-agents may nest: a command runs with `HINTGATE_DELEGATE_DEPTH` one
   * higher than its parent's, and `delegate_task` refuses at this depth. Default 3.
   */
  readonly maxDepth?: number;
}

/** What `delegate` of the workspace tools accepts: a sub-agent function, or settings. */
export type DelegateOption = DelegateFunction | DelegateSettings;

/** The sub-agent, checked, with defaults filled in. */
export interface ResolvedDelegate {
  /** The sub-agent function, when it is one. */
  readonly run: DelegateFunction | undefined;
  /** The sub-agent command, when it is one. */
  readonly command: readonly string[] | undefined;
  /** Environment of the command, when given. */
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  /** Timeout of a call, in milliseconds. */
  readonly timeoutMs: number;
  /** Bytes of the answer kept. */
  readonly maxOutputBytes: number;
  /** Deepest nesting of command sub-agents. */
  readonly maxDepth: number;
}

/** Environment variable that carries how deep a command sub-agent runs. */
export const DELEGATE_DEPTH_VARIABLE = 'HINTGATE_DELEGATE_DEPTH';
/** The argument of a sub-agent command that is replaced by the prompt. */
export const PROMPT_PLACEHOLDER = '{prompt}';

const DEFAULTS = { timeoutMs: 600_000, maxOutputBytes: 20_000, maxDepth: 3 } as const;

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `createWorkspaceTools: delegate${message}`);
};

/**
 * Checks the `delegate` option of the workspace tools; undefined when there is none.
 *
 * @throws HintgateError `invalid_option` when it is neither a function nor settings with
 * exactly one of `run` and `command`, or a setting is out of range.
 */
export function resolveDelegate(option: DelegateOption | undefined): ResolvedDelegate | undefined {
  if (option === undefined) return undefined;
  const settings: DelegateSettings =
    typeof option === 'function'
      ? { run: option }
      : isPlainObject(option)
        ? option
        : invalid(
            ' must be a function (task, { signal, workspace }) => answer, or { run } or { command: [program, ...args] }.',
          );
  const { run, command, env } = settings;
  if ((run === undefined) === (command === undefined)) {
    invalid(' needs exactly one of run (a function) and command (program and arguments).');
  }
  if (run !== undefined && typeof run !== 'function') {
    invalid('.run must be a function (task, { signal, workspace }) => answer.');
  }
  if (
    command !== undefined &&
    (!Array.isArray(command) ||
      command.length === 0 ||
      command.some((part) => typeof part !== 'string' || part.includes('\0')) ||
      command[0] === '')
  ) {
    invalid('.command must be a list of strings, the program first: ["claude", "-p", "{prompt}"].');
  }
  if (env !== undefined && !isPlainObject(env)) invalid('.env must be an object of strings.');
  const timeoutMs = settings.timeoutMs ?? DEFAULTS.timeoutMs;
  if (!isTimerMs(timeoutMs)) invalid(`.timeoutMs must be milliseconds in (0, ${MAX_TIMER_MS}].`);
  const maxOutputBytes = settings.maxOutputBytes ?? DEFAULTS.maxOutputBytes;
  if (!Number.isSafeInteger(maxOutputBytes) || maxOutputBytes <= 0) {
    invalid('.maxOutputBytes must be a positive integer.');
  }
  const maxDepth = settings.maxDepth ?? DEFAULTS.maxDepth;
  if (!Number.isSafeInteger(maxDepth) || maxDepth <= 0) {
    invalid('.maxDepth must be a positive integer.');
  }
  return {
    run,
    command: command === undefined ? undefined : Object.freeze([...command]),
    env,
    timeoutMs,
    maxOutputBytes,
    maxDepth,
  };
}
