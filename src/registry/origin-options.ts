import { HintgateError } from '../errors/index.js';
import {
  isPlainObject,
  isTimerMs,
  isTool,
  MAX_TIMER_MS,
  type RateLimit,
  type Tool,
} from '../tool/index.js';

import { TOOL_LAYERS, type ToolLayer } from './tool-layer.js';

/** Options of `ToolRegistry.addOrigin`: one source of tools (local code, an MCP server, ...). */
export interface OriginOptions {
  /** Unique, non-empty name of the origin in its registry, for example `local` or `github`. */
  readonly name: string;
  /** Layer of every tool of this origin; later layers shadow earlier ones by tool name. */
  readonly layer: ToolLayer;
  /**
   * Whether the origin's annotations are used. Default `true` (tools defined in code are
   * trusted); adapters of remote servers pass `false` until configuration or a check
   * record vouches for them. Annotations of an untrusted origin are reported, not used.
   */
  readonly trusted?: boolean;
  /**
   * Most calls of this origin that may run at once: a positive integer or `Infinity`.
   * Absent: the runtime decides.
   */
  readonly concurrency?: number;
  /**
   * One quota across every tool of this origin (say, a server capped per second): at most
   * `max` calls that succeed in any `windowMs`, beside each tool's own `rateLimit`; a call
   * needs a unit of both. Absent: none.
   */
  readonly rateLimit?: RateLimit;
  /** Tools made by `defineTool`. Default none; replace them later with `setTools`. */
  readonly tools?: readonly Tool[];
  /**
   * Absolute path of the file the tools were loaded from (a tool module found in a
   * `tools/` folder), reported by `describe()` and `hintgate tools`. Absent for tools
   * defined in code or offered by a server.
   */
  readonly file?: string;
  /**
   * Whether configuration by tool name (`configure`, the `tools:` entries of a policy file
   * or `hintgate.yaml`) applies to this origin's tools. Default `true`. A gateway's upstream
   * servers pass `false`: the server picks its tools' names, so an entry written for a local
   * tool must never reach a server's tool that takes the name (say, while the local tool is
   * held back or removed). Such an origin's tools are configured with `configureOrigin`.
   */
  readonly configuredByName?: boolean;
}

/** What `ToolRegistry.origins` reports about one origin. */
export interface OriginInfo {
  /** Name of the origin. */
  readonly name: string;
  /** Layer of the origin's tools. */
  readonly layer: ToolLayer;
  /** Whether the origin's annotations are used. */
  readonly trusted: boolean;
  /** Concurrency cap, when one was given. */
  readonly concurrency?: number;
  /** Quota across the origin's tools, when one was given. */
  readonly rateLimit?: RateLimit;
  /** How many tools the origin currently provides (visible or not). */
  readonly toolCount: number;
  /** The file the origin's tools were loaded from, when they come from one. */
  readonly file?: string;
  /** `false` when configuration by tool name does not reach the origin's tools. */
  readonly configuredByName?: false;
}

/** An origin after its options were checked: tools frozen in a new array. */
export interface CheckedOrigin {
  readonly name: string;
  readonly layer: ToolLayer;
  readonly trusted: boolean;
  readonly concurrency?: number;
  readonly rateLimit?: RateLimit;
  readonly tools: readonly Tool[];
  readonly file?: string;
  /** `false` when configuration by tool name does not apply to the origin's tools. */
  readonly configuredByName?: false;
}

const KEYS = new Set([
  'name',
  'layer',
  'trusted',
  'concurrency',
  'rateLimit',
  'tools',
  'file',
  'configuredByName',
]);

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', message);
};

const checkOriginRateLimit = (value: unknown, where: string): void => {
  const { max, windowMs, maxWaitMs, ...rest } = isPlainObject(value) ? value : {};
  if (
    !isPlainObject(value) ||
    Object.keys(rest).length > 0 ||
    !(Number.isSafeInteger(max) && (max as number) > 0) ||
    !isTimerMs(windowMs) ||
    !(maxWaitMs === undefined || maxWaitMs === 0 || isTimerMs(maxWaitMs))
  ) {
    invalid(
      `${where}: rateLimit must be { max, windowMs, maxWaitMs? }: max a positive integer, windowMs (and maxWaitMs) milliseconds in (0, ${MAX_TIMER_MS}], such as { max: 10, windowMs: 1000 }.`,
    );
  }
};

/**
 * Checks a tool list: an array of tools made by `defineTool`.
 *
 * @throws HintgateError `invalid_tool` for an element that is not such a tool.
 */
export function checkTools(value: unknown, where: string): readonly Tool[] {
  if (!Array.isArray(value)) return invalid(`${where}: tools must be an array of tools.`);
  value.forEach((tool: unknown, index) => {
    if (!isTool(tool)) {
      throw new HintgateError(
        'invalid_tool',
        `${where}: tools[${index}] is not a tool; build every tool with defineTool().`,
      );
    }
  });
  // The runtime validates arguments against `inputSchema` before `execute`, so a tool of
  // any argument type may be handed back as `Tool`.
  return Object.freeze([...(value as readonly Tool[])]);
}

/**
 * Checks the options of one origin.
 *
 * @throws HintgateError `invalid_option` (name, layer, trusted, concurrency or an unknown
 * key) or `invalid_tool` (an element of `tools` not made by `defineTool`).
 */
export function checkOriginOptions(value: unknown): CheckedOrigin {
  if (!isPlainObject(value)) return invalid('addOrigin expects one options object.');
  const options = value as Partial<Record<keyof OriginOptions, unknown>>;
  const { name, layer, trusted, concurrency, rateLimit, tools, file, configuredByName } = options;
  if (typeof name !== 'string' || name.trim() === '') {
    invalid(`Origin name ${JSON.stringify(name)} is invalid: use a non-empty string.`);
  }
  const where = `origin "${String(name)}"`;
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key)) {
      invalid(`${where}: unknown option "${key}". Known options: ${[...KEYS].join(', ')}.`);
    }
  }
  if (!(TOOL_LAYERS as readonly unknown[]).includes(layer)) {
    invalid(`${where}: layer ${JSON.stringify(layer)} is invalid; use ${TOOL_LAYERS.join(', ')}.`);
  }
  if (trusted !== undefined && typeof trusted !== 'boolean') {
    invalid(`${where}: trusted must be true or false.`);
  }
  if (
    concurrency !== undefined &&
    concurrency !== Number.POSITIVE_INFINITY &&
    !(Number.isInteger(concurrency) && (concurrency as number) > 0)
  ) {
    invalid(`${where}: concurrency must be a positive integer or Infinity.`);
  }
  if (rateLimit !== undefined) checkOriginRateLimit(rateLimit, where);
  if (file !== undefined && (typeof file !== 'string' || file === '')) {
    invalid(`${where}: file must be the path of the module the tools come from.`);
  }
  if (configuredByName !== undefined && typeof configuredByName !== 'boolean') {
    invalid(`${where}: configuredByName must be true or false.`);
  }
  return {
    name: name as string,
    layer: layer as ToolLayer,
    trusted: (trusted as boolean | undefined) ?? true,
    ...(concurrency === undefined ? {} : { concurrency: concurrency as number }),
    ...(rateLimit === undefined
      ? {}
      : { rateLimit: Object.freeze({ ...(rateLimit as RateLimit) }) }),
    tools: tools === undefined ? Object.freeze([]) : checkTools(tools, where),
    ...(file === undefined ? {} : { file: file as string }),
    ...(configuredByName === false ? { configuredByName: false as const } : {}),
  };
}
