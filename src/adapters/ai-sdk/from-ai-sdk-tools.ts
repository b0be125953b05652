import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { asSchema, type ToolSet } from 'ai';
import { HintgateError } from '../../errors/index.js';
import {
  type DefineToolOptions,
  defineTool,
  HINT_NAMES,
  isPlainObject,
  type JsonSchemaObject,
  type RateLimit,
  type ResourcesOption,
  type RetryOptions,
  type SchemaInput,
  type Tool,
  type ToolAnnotations,
  type ToolArguments,
  type ToolContext,
} from '../../tool/index.js';

/** How one AI SDK tool becomes a hintgate tool: what the AI SDK tool cannot say itself. */
export interface AiSdkToolConfig {
  /**
   * The tool's annotations, key by key over those of its MCP metadata (`metadata.annotations`,
   * which `@ai-sdk/mcp` sets from the server's listing). Which claims hintgate uses depends on
   * the trust of the origin the tool is registered in (see `fromAiSdkTools`).
   */
  readonly annotations?: ToolAnnotations;
  /** Resource keys of a call, for scheduling: templates like `"file:{path}"`, or a function. */
  readonly resources?: ResourcesOption<ToolArguments>;
  /** Identity of an approval (deterministic, no per-call noise, no secrets). */
  readonly approvalKey?: (args: ToolArguments) => string | readonly string[];
  /** Default timeout of a call in milliseconds. */
  readonly timeoutMs?: number;
  /** At most `max` successful calls per `windowMs`. */
  readonly rateLimit?: RateLimit;
  /** Retries of retryable failures; only for read-only or idempotent tools. */
  readonly retry?: RetryOptions;
  /** False skips the approval stack: only for side-effect-free tools. Default true. */
  readonly gated?: boolean;
  /** Scopes a caller must all hold to see the tool. */
  readonly scopes?: readonly string[];
  /** Output size limit in characters, overriding the runtime's. */
  readonly maxOutputChars?: number;
  /** What the tool does, instead of the AI SDK tool's description. */
  readonly description?: string;
  /** The `context` handed to the AI SDK tool's `execute` (its entry of `toolsContext`). */
  readonly context?: unknown;
}

/** Options of {@link fromAiSdkTools}. */
export interface FromAiSdkToolsOptions {
  /** Configuration by tool name; every name must be a tool of the set. */
  readonly tools?: Readonly<Record<string, AiSdkToolConfig>>;
}

const CONFIG_KEYS = new Set([
  'annotations',
  'resources',
  'approvalKey',
  'timeoutMs',
  'rateLimit',
  'retry',
  'gated',
  'scopes',
  'maxOutputChars',
  'description',
  'context',
]);

/** JSON Schema 2020-12, the dialect of hintgate's validator. */
const DIALECT_2020 = 'https://json-schema.org/draft/2020-12/schema';

function fail(code: 'invalid_option' | 'invalid_tool', message: string): never {
  throw new HintgateError(code, `fromAiSdkTools: ${message}`);
}

/** `title` and the four hints of MCP metadata, when they have the right type; nothing else. */
const metadataAnnotations = (tool: object): ToolAnnotations => {
  const metadata: unknown = (tool as { metadata?: unknown }).metadata;
  const claimed: unknown = isPlainObject(metadata) ? metadata.annotations : undefined;
  if (!isPlainObject(claimed)) return {};
  const out: Record<string, string | boolean> = {};
  if (typeof claimed.title === 'string') out.title = claimed.title;
  for (const hint of HINT_NAMES) {
    if (typeof claimed[hint] === 'boolean') out[hint] = claimed[hint];
  }
  return out as ToolAnnotations;
};

/**
 * The hintgate schema of an AI SDK input schema (zod, any Standard Schema, `jsonSchema()`):
 * its JSON Schema as the AI SDK renders it, validated by the AI SDK's own validator when the
 * schema has one (so that transforms and defaults apply as they would in the AI SDK), else
 * by hintgate's JSON Schema validator. A `$schema` of another draft (`@ai-sdk/mcp` and zod
 * 3 say draft-07) is set aside: the keywords tool schemas use mean the same in 2020-12.
 */
const inputSchemaOf = async (schema: unknown, where: string): Promise<SchemaInput> => {
  let converted: ReturnType<typeof asSchema>;
  let rendered: unknown;
  try {
    converted = asSchema(schema as Parameters<typeof asSchema>[0]);
    rendered = await converted.jsonSchema;
  } catch (error) {
    return fail('invalid_tool', `${where}: its inputSchema cannot be read: ${String(error)}.`);
  }
  if (!isPlainObject(rendered)) {
    return fail(
      'invalid_tool',
      `${where}: its inputSchema does not render to a JSON Schema object.`,
    );
  }
  const { $schema, ...rest } = rendered;
  const jsonSchema: JsonSchemaObject = $schema === DIALECT_2020 ? rendered : rest;
  const { validate } = converted;
  if (validate === undefined) return jsonSchema;
  const wrapped: StandardSchemaV1 & StandardJSONSchemaV1 = {
    '~standard': {
      version: 1,
      vendor: 'ai-sdk',
      validate: async (value) => {
        const result = await validate(value);
        return result.success
          ? { value: result.value }
          : { issues: [{ message: result.error.message }] };
      },
      jsonSchema: { input: () => ({ ...jsonSchema }), output: () => ({ ...jsonSchema }) },
    },
  };
  return wrapped;
};

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';

/** What the AI SDK tool's `execute` returns, its last value for one that streams previews. */
const settle = async (output: unknown): Promise<unknown> => {
  if (!isAsyncIterable(output)) return output;
  let last: unknown;
  for await (const value of output) last = value;
  return last;
};

const descriptionOf = (tool: object, config: AiSdkToolConfig, name: string, title?: string) => {
  if (config.description !== undefined) return config.description;
  const given: unknown = (tool as { description?: unknown }).description;
  const text =
    typeof given === 'function'
      ? (given as (o: object) => unknown)({ context: config.context })
      : given;
  // defineTool requires a description; the AI SDK does not. Use the tool's own words.
  return typeof text === 'string' && text.trim() !== '' ? text : (title ?? name);
};

const checkConfig = (tools: ToolSet, options: unknown): Record<string, AiSdkToolConfig> => {
  if (options === undefined) return {};
  if (!isPlainObject(options))
    return fail('invalid_option', 'options must be an object { tools? }.');
  for (const key of Object.keys(options)) {
    if (key !== 'tools') fail('invalid_option', `unknown option "${key}". Known options: tools.`);
  }
  const { tools: configs } = options;
  if (configs === undefined) return {};
  if (!isPlainObject(configs)) {
    return fail('invalid_option', 'tools must be an object of tool name -> configuration.');
  }
  for (const [name, config] of Object.entries(configs)) {
    if (!Object.hasOwn(tools, name)) {
      fail(
        'invalid_option',
        `tools.${name} names no tool of the set. Its tools: ${Object.keys(tools).join(', ') || 'none'}.`,
      );
    }
    if (!isPlainObject(config)) fail('invalid_option', `tools.${name} must be an object.`);
    for (const key of Object.keys(config as object)) {
      if (!CONFIG_KEYS.has(key)) {
        fail(
          'invalid_option',
          `tools.${name}: unknown option "${key}". Known options: ${[...CONFIG_KEYS].join(', ')}.`,
        );
      }
    }
  }
  return configs as Record<string, AiSdkToolConfig>;
};

/**
 * Takes the tools of an AI SDK `ToolSet` (the app's own, or those `@ai-sdk/mcp`'s
 * `client.tools()` makes of an MCP server) into hintgate, so that their calls get
 * scheduling, policy and audit: register the returned tools in a runtime
 * (`createRuntime({ tools })`, trusted like any tool defined in code) or in an origin of a
 * registry.
 *
 * Each tool keeps its name, description and input schema (validated as the AI SDK would);
 * its `execute` is called with the call's abort signal and the configured `context`, and
 * what it returns is the result (an MCP tool's `CallToolResult` as is, `isError` kept).
 * Annotations come from `options.tools[name].annotations`, over those the tool's MCP
 * metadata claims. Claims of an MCP server are not to be trusted by default: register such
 * tools in an origin with `trusted: false` (their claims are then shown, not used), and
 * vouch for tools with the registry's per-tool `annotations` (or the runtime's
 * `trust.tools`), which are trusted.
 *
 * @throws HintgateError `invalid_option` for bad options (or a configuration naming no tool
 * of the set), `invalid_tool` for a tool hintgate cannot run (one the provider executes,
 * one without `execute`, one whose schema cannot be read), and what `defineTool` throws for
 * a name or configuration it refuses.
 */
export async function fromAiSdkTools(
  tools: ToolSet,
  options?: FromAiSdkToolsOptions,
): Promise<Tool[]> {
  if (!isPlainObject(tools)) {
    fail('invalid_option', 'expects an AI SDK ToolSet: an object of tool name -> tool.');
  }
  const configs = checkConfig(tools, options);
  const made: Tool[] = [];
  for (const [name, tool] of Object.entries(tools)) {
    const where = `AI SDK tool "${name}"`;
    if (typeof tool !== 'object' || tool === null) fail('invalid_tool', `${where} is not a tool.`);
    if (tool.type === 'provider') {
      fail(
        'invalid_tool',
        `${where} is a provider tool (${String(tool.id)}): its provider runs it, not the app, so hintgate cannot. Leave it out of the set.`,
      );
    }
    const execute = tool.execute;
    if (typeof execute !== 'function') {
      fail(
        'invalid_tool',
        `${where} has no execute function (the app runs it, for example in the browser), so hintgate cannot run it. Leave it out of the set.`,
      );
    }
    const config = configs[name] ?? {};
    const annotations = { ...metadataAnnotations(tool), ...config.annotations };
    const meta: unknown = (tool as { _meta?: unknown })._meta;
    const { annotations: _given, description: _text, context, ...rest } = config;
    const options: DefineToolOptions<SchemaInput> = {
      ...rest,
      name,
      description: descriptionOf(tool, config, name, annotations.title),
      annotations,
      inputSchema: await inputSchemaOf(tool.inputSchema, where),
      ...(isPlainObject(meta) ? { meta } : {}),
      execute: async (args: ToolArguments, { callId, signal }: ToolContext) =>
        settle(
          await execute(args, { toolCallId: callId, messages: [], abortSignal: signal, context }),
        ),
    };
    made.push(defineTool(options) as Tool);
  }
  return made;
}
