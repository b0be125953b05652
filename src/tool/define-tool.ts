import type { StandardSchemaV1 } from '@standard-schema/spec';
import { HintgateError } from '../errors/index.js';
import { HINT_NAMES, type ToolAnnotations } from './annotations.js';
import type { ApprovalKeyResult } from './approval-keys.js';
import { effectiveAnnotations } from './effective-annotations.js';
import { isPlainObject, schemaPropertyNames } from './json-schema.js';
import { isTimerMs, MAX_TIMER_MS } from './max-timer-ms.js';
import { compileResources, type ResourcesOption, type ToolArguments } from './resource-template.js';
import type { RateLimit, RetryOptions, Tool, ToolContext } from './tool.js';
import { type SchemaInput, toolSchema } from './tool-schema.js';

/** Arguments type of a tool: a Standard Schema's output type, else a plain record. */
export type InferArguments<S> = S extends StandardSchemaV1
  ? unknown extends StandardSchemaV1.InferOutput<S>
    ? ToolArguments
    : StandardSchemaV1.InferOutput<S>
  : ToolArguments;

/** Options of {@link defineTool}. */
export interface DefineToolOptions<S extends SchemaInput> {
  /** 1-128 characters of `A-Z a-z 0-9 _ - .`, unique in its registry layer. */
  readonly name: string;
  /**
   * The tool's name on its origin when `name` is another, such as a gateway's
   * `github__delete_repo` for `github`'s `delete_repo`: rules and remembered approvals bind
   * to the origin and this name. Same rules as `name`. Default: `name`.
   */
  readonly nameOnOrigin?: string;
  /** Display title (MCP `title`). */
  readonly title?: string;
  /** What the tool does; the model chooses tools by it. */
  readonly description: string;
  /** Arguments: a Standard Schema (zod 4, ...) or a JSON Schema object of `type: "object"`. */
  readonly inputSchema: S;
  /** Structured result: fields it does not name are stripped from results. */
  readonly outputSchema?: SchemaInput;
  /** Claimed hints; absent ones take the MCP spec defaults. Use a preset where one fits. */
  readonly annotations?: ToolAnnotations;
  /** Resource keys of a call: templates like `"file:{path}"`, or a function of the arguments. */
  readonly resources?: ResourcesOption<InferArguments<S>>;
  /**
   * Identity of an approval (deterministic, no per-call noise, no secrets): keys, or
   * `{ keys, opaque }` with the parts of the call it could not understand, or a promise of
   * either.
   */
  readonly approvalKey?: (
    args: InferArguments<S>,
  ) => ApprovalKeyResult | Promise<ApprovalKeyResult>;
  /** Default timeout of a call in milliseconds (the runtime's default otherwise). */
  readonly timeoutMs?: number;
  /**
   * At most `max` successful calls per `windowMs`. Default: the limit the tool declares in
   * `annotations.custom.rateLimit`, if any; this option, like a config override, replaces it.
   */
  readonly rateLimit?: RateLimit;
  /** Retries of retryable failures; only for read-only or idempotent tools. */
  readonly retry?: RetryOptions;
  /** False skips the approval stack: only for side-effect-free tools. Default true. */
  readonly gated?: boolean;
  /** Scopes a caller must all hold to see the tool. Default none. */
  readonly scopes?: readonly string[];
  /** Output size limit in characters, overriding the runtime's `maxOutputChars`. */
  readonly maxOutputChars?: number;
  /** Extra metadata for MCP `_meta`. */
  readonly meta?: Record<string, unknown>;
  /**
   * MCP listing fields hintgate does not interpret (`execution`, `icons`, ...), listed as
   * they are; the fields hintgate renders itself (name, title, description, schemas,
   * annotations, `_meta`) win over them.
   */
  readonly listingExtras?: Readonly<Record<string, unknown>>;
  /** Runs the tool. */
  readonly execute: (args: InferArguments<S>, context: ToolContext) => unknown;
}

/** MCP tool name rules. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

const OPTION_KEYS = new Set([
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  'resources',
  'approvalKey',
  'timeoutMs',
  'rateLimit',
  'retry',
  'gated',
  'scopes',
  'maxOutputChars',
  'meta',
  'listingExtras',
  'nameOnOrigin',
  'execute',
]);

const fail = (code: ConstructorParameters<typeof HintgateError>[0], message: string): never => {
  throw new HintgateError(code, message);
};

const isPositive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

const checkAnnotations = (value: unknown, where: string): ToolAnnotations => {
  if (value === undefined) return {};
  if (!isPlainObject(value))
    return fail('invalid_tool', `${where}: annotations must be an object.`);
  const out: Record<string, unknown> = {};
  for (const [key, hint] of Object.entries(value)) {
    if (key === 'title') {
      if (hint !== undefined && typeof hint !== 'string') {
        fail('invalid_tool', `${where}: annotations.title must be a string.`);
      }
    } else if (key === 'custom') {
      if (hint !== undefined && !isPlainObject(hint)) {
        fail(
          'invalid_tool',
          `${where}: annotations.custom must be an object, as in custom: { rateLimit: { windowMs: 60000, max: 5 } }.`,
        );
      }
      if (hint !== undefined) out[key] = Object.freeze({ ...hint });
      continue;
    } else if ((HINT_NAMES as readonly string[]).includes(key)) {
      if (hint !== undefined && typeof hint !== 'boolean') {
        fail('invalid_tool', `${where}: annotations.${key} must be true, false or absent.`);
      }
    } else {
      fail(
        'invalid_tool',
        `${where}: annotations.${key} is not an MCP annotation (title, ${HINT_NAMES.join(', ')}, custom). Put fields outside the spec under "custom", or extra hints in "meta" under "dev.hintgate/".`,
      );
    }
    if (hint !== undefined) out[key] = hint;
  }
  return Object.freeze(out) as ToolAnnotations;
};

const checkRateLimit = (value: unknown, where: string): RateLimit | undefined => {
  if (value === undefined) return undefined;
  const limit = value as Partial<RateLimit>;
  if (
    !isPlainObject(value) ||
    !Number.isInteger(limit.max) ||
    !isPositive(limit.max) ||
    !isTimerMs(limit.windowMs) ||
    (limit.maxWaitMs !== undefined && !(isTimerMs(limit.maxWaitMs) || limit.maxWaitMs === 0))
  ) {
    return fail(
      'invalid_rate_limit',
      `${where}: rateLimit must be { max: positive integer, windowMs: milliseconds in (0, ${MAX_TIMER_MS}], maxWaitMs?: milliseconds >= 0 }, for example { max: 5, windowMs: 60000 }.`,
    );
  }
  return Object.freeze({ ...limit }) as RateLimit;
};

const checkRetry = (
  value: unknown,
  annotations: ToolAnnotations,
  where: string,
): RetryOptions | undefined => {
  if (value === undefined) return undefined;
  const retry = (isPlainObject(value) ? value : {}) as RetryOptions;
  const badCount =
    retry.attempts !== undefined && !(Number.isInteger(retry.attempts) && retry.attempts >= 1);
  const badDelay = [retry.baseDelayMs, retry.maxDelayMs].some(
    (d) => d !== undefined && !(typeof d === 'number' && Number.isFinite(d) && d >= 0),
  );
  if (!isPlainObject(value) || badCount || badDelay) {
    return fail(
      'invalid_retry',
      `${where}: retry must be { attempts?: integer >= 1, baseDelayMs?: number >= 0, maxDelayMs?: number >= 0 }.`,
    );
  }
  const hints = effectiveAnnotations(annotations);
  if ((retry.attempts ?? 2) > 1 && !hints.readOnlyHint && !hints.idempotentHint) {
    fail(
      'invalid_retry',
      `${where}: retry is configured but the tool is neither read-only nor idempotent, so a retry could repeat its effect. Set annotations.idempotentHint (or readOnlyHint) to true if repeating the call is harmless, or remove retry.`,
    );
  }
  return Object.freeze({ ...retry });
};

const TOOL_BRAND = Symbol.for('hintgate.tool');

/** True for an object made by {@link defineTool}. */
export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && TOOL_BRAND in value;
}

/**
 * A copy of a defined tool whose `execute` is `execute` (which usually calls the tool's
 * own): the same definition, checks already made, frozen like the original.
 */
export function withExecute<Args>(tool: Tool<Args>, execute: Tool<Args>['execute']): Tool<Args> {
  const copy = { ...tool, execute };
  Object.defineProperty(copy, TOOL_BRAND, { value: true });
  return Object.freeze(copy);
}

/**
 * Defines a tool: checks every field, normalizes schemas and resource templates, and
 * returns a frozen {@link Tool}.
 *
 * @throws HintgateError with a code naming the problem (`invalid_tool_name`,
 * `invalid_schema`, `invalid_resource_template`, `invalid_retry`, `invalid_rate_limit`,
 * `invalid_tool`) and a message that says what to fix.
 */
export function defineTool<S extends SchemaInput>(
  options: DefineToolOptions<S>,
): Tool<InferArguments<S>> {
  if (!isPlainObject(options)) fail('invalid_tool', 'defineTool expects one options object.');
  const { name } = options;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    fail(
      'invalid_tool_name',
      `Tool name ${JSON.stringify(name)} breaks the MCP rules: use 1-128 characters of A-Z, a-z, 0-9, "_", "-" and "." (no spaces or slashes).`,
    );
  }
  const where = `tool "${name}"`;
  const { nameOnOrigin } = options;
  if (
    nameOnOrigin !== undefined &&
    (typeof nameOnOrigin !== 'string' || !TOOL_NAME_PATTERN.test(nameOnOrigin))
  ) {
    fail(
      'invalid_tool_name',
      `${where}: nameOnOrigin ${JSON.stringify(nameOnOrigin)} breaks the MCP rules: use the tool's name on its origin, 1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".".`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) {
      fail(
        'invalid_tool',
        `${where}: unknown option "${key}". Known options: ${[...OPTION_KEYS].join(', ')}.`,
      );
    }
  }
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    fail(
      'invalid_tool',
      `${where}: description is required; say what the tool does, the model chooses tools by it.`,
    );
  }
  if (options.title !== undefined && typeof options.title !== 'string') {
    fail('invalid_tool', `${where}: title must be a string.`);
  }
  if (typeof options.execute !== 'function') {
    fail('invalid_tool', `${where}: execute must be a function (args, context) => result.`);
  }
  if (options.timeoutMs !== undefined && !isTimerMs(options.timeoutMs)) {
    fail('invalid_tool', `${where}: timeoutMs must be milliseconds in (0, ${MAX_TIMER_MS}].`);
  }
  if (options.maxOutputChars !== undefined && !isPositive(options.maxOutputChars)) {
    fail('invalid_tool', `${where}: maxOutputChars must be a positive number.`);
  }
  if (options.gated !== undefined && typeof options.gated !== 'boolean') {
    fail('invalid_tool', `${where}: gated must be true or false.`);
  }
  if (
    options.scopes !== undefined &&
    (!Array.isArray(options.scopes) ||
      options.scopes.some((s) => typeof s !== 'string' || s === ''))
  ) {
    fail('invalid_tool', `${where}: scopes must be a list of non-empty strings.`);
  }
  if (options.approvalKey !== undefined && typeof options.approvalKey !== 'function') {
    fail('invalid_tool', `${where}: approvalKey must be a function of the arguments.`);
  }
  if (options.meta !== undefined && !isPlainObject(options.meta)) {
    fail('invalid_tool', `${where}: meta must be a plain object.`);
  }
  if (options.listingExtras !== undefined && !isPlainObject(options.listingExtras)) {
    fail('invalid_tool', `${where}: listingExtras must be a plain object of listing fields.`);
  }

  const annotations = checkAnnotations(options.annotations, where);
  const inputSchema = toolSchema<InferArguments<S>>(
    options.inputSchema,
    'input',
    `inputSchema of ${where}`,
  );
  const outputSchema =
    options.outputSchema === undefined
      ? undefined
      : toolSchema<Record<string, unknown>>(
          options.outputSchema,
          'output',
          `outputSchema of ${where}`,
        );
  const resources =
    options.resources === undefined
      ? undefined
      : compileResources(options.resources, schemaPropertyNames(inputSchema.jsonSchema), where);
  const rateLimit =
    checkRateLimit(options.rateLimit, where) ??
    checkRateLimit(annotations.custom?.rateLimit, `${where}: annotations.custom`);
  const retry = checkRetry(options.retry, annotations, where);
  const execute = options.execute;

  const tool: Tool<InferArguments<S>> = {
    name,
    ...(nameOnOrigin === undefined || nameOnOrigin === name ? {} : { nameOnOrigin }),
    ...(options.title === undefined ? {} : { title: options.title }),
    description: options.description,
    annotations,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(resources === undefined ? {} : { resources }),
    ...(options.approvalKey === undefined ? {} : { approvalKey: options.approvalKey }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(retry === undefined ? {} : { retry }),
    gated: options.gated ?? true,
    scopes: Object.freeze([...(options.scopes ?? [])]),
    ...(options.maxOutputChars === undefined ? {} : { maxOutputChars: options.maxOutputChars }),
    ...(options.meta === undefined ? {} : { meta: options.meta }),
    ...(options.listingExtras === undefined
      ? {}
      : { listingExtras: Object.freeze({ ...options.listingExtras }) }),
    execute: (args, context) => execute(args, context),
  };
  Object.defineProperty(tool, TOOL_BRAND, { value: true });
  return Object.freeze(tool);
}
