import { HintgateError } from '../errors/index.js';
import { type Clock, systemClock } from '../schedule/index.js';
import {
  type DefineToolOptions,
  defineTool,
  type JsonSchemaObject,
  type Tool,
  type ToolAnnotations,
  type ToolArguments,
  type ToolContext,
} from '../tool/index.js';

/** One scripted answer of a {@link scriptedTool}. */
export interface ScriptStep {
  /** What the call returns (any value a tool may return). Default `"<name> done"`. */
  readonly result?: unknown;
  /** If set, the call throws an `Error` with this message instead of returning. */
  readonly error?: string;
  /** Milliseconds the call takes, on the tool's clock; it ends early if aborted. Default 0. */
  readonly delayMs?: number;
}

/** A call a {@link scriptedTool} received. */
export interface ScriptedCall {
  /** The runtime's id of the call. */
  readonly callId: string;
  /** The arguments as the tool got them (validated). */
  readonly arguments: ToolArguments;
  /** 1 for the first attempt, more for retries. */
  readonly attempt: number;
  /** Clock time the call started. */
  readonly startedAt: number;
  /** Clock time the call ended (returned, threw or was aborted); absent while it runs. */
  endedAt?: number;
  /** How it ended; absent while it runs. */
  outcome?: 'returned' | 'threw' | 'aborted';
}

/** Options of {@link scriptedTool}. */
export interface ScriptedToolOptions {
  /** The tool's name (MCP name rules). */
  readonly name: string;
  /** What the tool does. Default `"Scripted tool <name>"`. */
  readonly description?: string;
  /** The hints it claims; use a preset (`READ_ONLY`, `WRITE`, `DESTRUCTIVE`). Default none. */
  readonly annotations?: ToolAnnotations;
  /** Arguments schema (JSON Schema or Standard Schema). Default: any object. */
  readonly inputSchema?: JsonSchemaObject;
  /** Resource keys of a call, as in `defineTool`: templates such as `"file:{path}"`. */
  readonly resources?: DefineToolOptions<JsonSchemaObject>['resources'];
  /**
   * The answers, one per call in the order calls start; the last one repeats once the
   * script is used up. Default: one step that returns `"<name> done"`.
   */
  readonly steps?: readonly ScriptStep[];
  /** Clock of delays and timestamps: a `createFakeClock()` makes them exact. Default: system. */
  readonly clock?: Clock;
  /** Further `defineTool` options (timeouts, retries, rate limits, ...). */
  readonly define?: Partial<Omit<DefineToolOptions<JsonSchemaObject>, 'execute' | 'name'>>;
}

/** A {@link scriptedTool}: the tool to register and what it was asked. */
export interface ScriptedTool {
  /** The tool, for `createRuntime({ tools })` or a registry. */
  readonly tool: Tool;
  /** Every call it received, in the order they started. */
  readonly calls: readonly ScriptedCall[];
  /** Ids of the calls running now. */
  running(): string[];
}

const wait = (clock: Clock, ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal.reason);
    };
    const handle = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A tool whose answers follow a script and which records every call with its start and
 * end time: the building block of scheduling, approval and retry tests. Give it a fake
 * clock to see exactly which calls overlapped.
 */
export function scriptedTool(options: ScriptedToolOptions): ScriptedTool {
  const steps = options.steps ?? [{}];
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new HintgateError(
      'invalid_option',
      `scriptedTool "${options.name}": steps must be a non-empty list of { result, error, delayMs }`,
    );
  }
  const clock = options.clock ?? systemClock;
  const calls: ScriptedCall[] = [];
  const tool = defineTool({
    ...options.define,
    name: options.name,
    description: options.description ?? `Scripted tool ${options.name}`,
    inputSchema: options.inputSchema ?? { type: 'object' },
    ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
    ...(options.resources === undefined ? {} : { resources: options.resources }),
    execute: async (args: ToolArguments, context: ToolContext) => {
      const step = steps[Math.min(calls.length, steps.length - 1)] ?? {};
      const call: ScriptedCall = {
        callId: context.callId,
        arguments: args,
        attempt: context.attempt,
        startedAt: clock.now(),
      };
      calls.push(call);
      try {
        if (step.delayMs !== undefined && step.delayMs > 0) {
          await wait(clock, step.delayMs, context.signal);
        }
      } catch (error) {
        call.endedAt = clock.now();
        call.outcome = 'aborted';
        throw error;
      }
      call.endedAt = clock.now();
      if (step.error !== undefined) {
        call.outcome = 'threw';
        throw new Error(step.error);
      }
      call.outcome = 'returned';
      return step.result ?? `${options.name} done`;
    },
  });
  return {
    tool,
    calls,
    running: () => calls.filter((call) => call.endedAt === undefined).map((call) => call.callId),
  };
}
