import { isDeepStrictEqual } from 'node:util';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/client';
import { asError, HintgateError } from '../../errors/index.js';
import {
  type DefineToolOptions,
  defineTool,
  HINT_NAMES,
  isPlainObject,
  type JsonSchemaObject,
  type SchemaInput,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolAnnotations,
  type ToolCancellation,
  type ToolContext,
  type ToolProgress,
} from '../../tool/index.js';
import {
  fallbackInputSchema,
  lazyInputSchema,
  outputSchemaProblem,
  remoteOutputSchema,
} from './remote-schema.js';

/** A tool of a server's list that is not registered as listed, and why. */
export interface McpToolProblem {
  /** The tool's name as the server lists it. */
  readonly name: string;
  /** True when the tool is not registered at all; false when it is, with the concession in `message`. */
  readonly skipped: boolean;
  /** What is wrong and what hintgate does about it. */
  readonly message: string;
}

/** One `tools/call` to the server, as a remote tool's `execute` makes it. */
export interface RemoteCallRequest {
  /** The tool's name on the server. */
  readonly name: string;
  /** Checked arguments. */
  readonly arguments: Record<string, unknown>;
  /**
   * The call's cancellation (the tool context's, which makes no `AbortSignal`): its abort
   * cancels the request on the server.
   */
  readonly signal: ToolCancellation;
  /** When the call times out, as a `Date.now()` time (see `ToolContext.deadline`). */
  readonly deadline?: number | undefined;
  /** A definition to use instead of the listed one (so the client skips a schema it cannot compile). */
  readonly toolDefinition?: McpTool | undefined;
  /**
   * True when the tool lists an output schema, which the SDK client checks
   * `structuredContent` against: such a call goes through the client's `callTool`.
   */
  readonly hasOutputSchema?: boolean | undefined;
  /** Receives the server's `notifications/progress` for the call; asks for them when present. */
  readonly onProgress?: ((progress: ToolProgress) => void) | undefined;
  /** More keys for the request's `_meta` (a `traceparent`); the progress token wins. */
  readonly meta?: Readonly<Record<string, string>>;
}

/** Sends one `tools/call` and resolves to the server's result. */
export type RemoteCall = (request: RemoteCallRequest) => Promise<CallToolResult>;

/**
 * The annotations of a listed tool, faithfully: `title` and the four hints when they have
 * the right type, three states kept (absent stays absent), and `custom` when it is an
 * object (its `rateLimit` is honoured; see `defineTool`); anything else is left out, and
 * nothing is invented.
 */
export function remoteAnnotations(value: unknown): ToolAnnotations {
  if (!isPlainObject(value)) return {};
  const out: Record<string, unknown> = {};
  if (typeof value.title === 'string') out.title = value.title;
  for (const hint of HINT_NAMES) {
    const claimed = value[hint];
    if (typeof claimed === 'boolean') out[hint] = claimed;
  }
  if (isPlainObject(value.custom)) out.custom = value.custom;
  return out as ToolAnnotations;
}

/** How {@link toRemoteTool} and {@link toRemoteTools} make tools. */
export interface RemoteToolOptions {
  /**
   * `eager` (default) compiles each tool's input and output schema when the tool is made,
   * so that `problems` lists every schema hintgate's validator rejects. `lazy` compiles a
   * tool's schemas on its first call instead, so that listing a server of thousands of tools
   * costs little; a problem found then goes to `onProblem`.
   */
  readonly schemas?: 'eager' | 'lazy';
  /** Told a problem of a tool found after it was made (with `schemas: 'lazy'`), once. */
  readonly onProblem?: (problem: McpToolProblem) => void;
}

/** A remote tool, or why it could not be made, plus concessions. */
export interface RemoteToolOutcome {
  /** The tool, unless it was skipped. */
  readonly tool?: Tool;
  /** Problems of this tool (empty for a tool registered exactly as listed). */
  readonly problems: readonly McpToolProblem[];
}

const nonBlank = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

const descriptionOf = (listed: McpTool, annotations: ToolAnnotations): string =>
  // defineTool requires a description; the MCP spec makes it optional. Use the server's
  // own words for the tool rather than invent any.
  nonBlank(listed.description) ??
  nonBlank(listed.title) ??
  nonBlank(annotations.title) ??
  listed.name;

/** A value from a server, quoted for a message and cut to a readable length. */
const quoted = (value: unknown): string => {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length <= 200 ? text : `${text.slice(0, 200)}...`;
};

/** Why a listed input schema can never be a tool's arguments, or `undefined` when it may. */
const inputSchemaRefusal = (schema: unknown): string | undefined => {
  if (!isPlainObject(schema)) {
    return `its input schema must be a JSON Schema object, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`;
  }
  if (schema.type !== 'object') {
    return `its input schema must describe an object ("type": "object"), got "type": ${quoted(schema.type)}; MCP tool arguments are always objects`;
  }
  return undefined;
};

/** Fields of a listed tool that hintgate renders itself; any other is carried as it is. */
export const RENDERED_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  '_meta',
]);

/**
 * Turns one tool of a server's `tools/list` into a hintgate tool whose `execute` calls it
 * on the server through `call`. Name, title, description, schemas, annotations and `_meta`
 * are carried as listed, and so is any other field (`execution`, `icons`, ...). A schema hintgate's validator rejects is listed unchanged and
 * checked leniently or not at all (see `problems`); a name hintgate cannot register is
 * skipped.
 */
export function toRemoteTool(
  listed: McpTool,
  origin: string,
  call: RemoteCall,
  options: RemoteToolOptions = {},
): RemoteToolOutcome {
  const name: unknown = isPlainObject(listed) ? listed.name : undefined;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    return {
      problems: [
        {
          name: typeof name === 'string' ? name : String(quoted(name)),
          skipped: true,
          message: `MCP server "${origin}" lists a tool named ${quoted(name)}, which breaks the MCP name rules (1-128 of A-Z a-z 0-9 _ - .); it is not registered.`,
        },
      ],
    };
  }
  const problems: McpToolProblem[] = [];
  const skip = (reason: string): RemoteToolOutcome => ({
    problems: [
      ...problems,
      {
        name,
        skipped: true,
        message: `tool "${name}" of MCP server "${origin}" cannot be registered: ${reason}`,
      },
    ],
  });
  const refusal = inputSchemaRefusal(listed.inputSchema);
  if (refusal !== undefined) return skip(`${refusal}.`);
  // Every field is the server's: whatever a hostile one makes throw costs this tool only.
  try {
    return makeRemoteTool(listed, name, origin, call, options, problems, skip);
  } catch (error) {
    return skip(asError(error).message);
  }
}

const makeRemoteTool = (
  listed: McpTool,
  name: string,
  origin: string,
  call: RemoteCall,
  options: RemoteToolOptions,
  problems: McpToolProblem[],
  skip: (reason: string) => RemoteToolOutcome,
): RemoteToolOutcome => {
  const problemOf = (message: string): McpToolProblem => ({
    name,
    skipped: false,
    message: `tool "${name}" of MCP server "${origin}": ${message}.`,
  });
  const note = (message: string): void => {
    problems.push(problemOf(message));
  };
  const lateNote = (message: string): void => options.onProblem?.(problemOf(message));
  const lazy = options.schemas === 'lazy';
  const annotations = remoteAnnotations(listed.annotations);
  const output = remoteOutputSchema(listed.outputSchema, !lazy);
  if (output?.problem !== undefined) note(output.problem);
  const withoutOutputSchema = (): McpTool => {
    const { outputSchema: _unchecked, ...rest } = listed;
    return rest;
  };
  let toolDefinition: McpTool | undefined;
  if (output !== undefined && output.compiles === false) toolDefinition = withoutOutputSchema();
  // Lazily: whether the client can compile the output schema is found on the first call.
  let outputUnchecked = output?.schema !== undefined && output.compiles === undefined;
  const hasOutputSchema = listed.outputSchema === undefined ? undefined : true;
  // A tool with an output schema hands the MCP client its definition on every call: the
  // client checks the result against it (compiled once), with no cached copy of the list.
  if (toolDefinition === undefined && hasOutputSchema) toolDefinition = listed;
  const definitionForCall = (): McpTool | undefined => {
    if (outputUnchecked && isPlainObject(listed.outputSchema)) {
      outputUnchecked = false;
      const problem = outputSchemaProblem(listed.outputSchema);
      if (problem !== undefined) {
        toolDefinition = withoutOutputSchema();
        lateNote(problem);
      }
    }
    return toolDefinition;
  };
  const extras = Object.fromEntries(
    Object.entries(listed).filter(([key]) => !RENDERED_FIELDS.has(key)),
  );
  const title = typeof listed.title === 'string' ? listed.title : undefined;
  if (listed.title !== undefined && title === undefined) {
    note(`its title is not a string (${quoted(listed.title)}); it is left out`);
  }
  const base = {
    name,
    ...(Object.keys(extras).length === 0 ? {} : { listingExtras: extras }),
    ...(title === undefined ? {} : { title }),
    description: descriptionOf(listed, annotations),
    annotations,
    ...(output?.schema === undefined ? {} : { outputSchema: output.schema }),
    ...(isPlainObject(listed._meta) ? { meta: listed._meta } : {}),
    execute: (args: Record<string, unknown>, context: ToolContext) => {
      // One shape for every call (absent fields undefined): no object spreads per call.
      return call({
        name,
        arguments: args,
        signal: context.cancellation ?? context.signal,
        deadline: context.deadline,
        toolDefinition: definitionForCall(),
        hasOutputSchema,
        onProgress: context.onProgress,
      });
    },
  };
  const define = (inputSchema: SchemaInput): Tool =>
    defineTool({ ...base, inputSchema } as DefineToolOptions<SchemaInput>) as Tool;
  // inputSchema is a plain object schema of type "object" here (see inputSchemaRefusal).
  const inputSchema = listed.inputSchema as JsonSchemaObject;
  if (lazy) {
    const where = `inputSchema of tool "${name}" of MCP server "${origin}"`;
    return { tool: define(lazyInputSchema(inputSchema, where, lateNote)), problems };
  }
  try {
    return { tool: define(inputSchema), problems };
  } catch (error) {
    if (!(error instanceof HintgateError && error.code === 'invalid_schema')) {
      return skip(asError(error).message);
    }
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    const fallback = fallbackInputSchema(inputSchema, reason);
    note(fallback.problem);
    return { tool: define(fallback.schema), problems };
  }
};

/** A server's tool list turned into hintgate tools. */
export interface RemoteToolSet {
  /** The tools to register, in the server's order. */
  readonly tools: readonly Tool[];
  /** Problems of the list, tool by tool. */
  readonly problems: readonly McpToolProblem[];
  /**
   * Made tools by name with the definition they came from (the listed object itself, which
   * the tool keeps anyway), to reuse on the next refresh.
   */
  readonly made: ReadonlyMap<
    string,
    { readonly definition: McpTool; readonly outcome: RemoteToolOutcome }
  >;
}

/**
 * Turns a server's whole `tools/list` into hintgate tools. A tool whose definition did not
 * change since `previous` keeps its tool object, so the registry reports only the tools
 * that changed. A second tool of the same name is skipped. `options` as for
 * {@link toRemoteTool}.
 */
export function toRemoteTools(
  listed: readonly McpTool[],
  origin: string,
  call: RemoteCall,
  previous?: RemoteToolSet,
  options: RemoteToolOptions = {},
): RemoteToolSet {
  const tools: Tool[] = [];
  const problems: McpToolProblem[] = [];
  const made = new Map<
    string,
    { readonly definition: McpTool; readonly outcome: RemoteToolOutcome }
  >();
  for (const definition of listed) {
    if (!isPlainObject(definition)) {
      problems.push(...toRemoteTool(definition, origin, call).problems);
      continue;
    }
    const { name } = definition;
    if (made.has(name)) {
      problems.push({
        name,
        skipped: true,
        message: `MCP server "${origin}" lists tool ${quoted(name)} more than once; only the first is registered.`,
      });
      continue;
    }
    // Compared with the definition listed before only on a refresh: the first list of a
    // server of thousands of tools costs no digest or copy of each.
    const earlier = previous?.made.get(name);
    const outcome =
      earlier !== undefined && isDeepStrictEqual(earlier.definition, definition)
        ? earlier.outcome
        : toRemoteTool(definition, origin, call, options);
    if (typeof name === 'string') made.set(name, { definition, outcome });
    if (outcome.tool !== undefined) tools.push(outcome.tool);
    problems.push(...outcome.problems);
  }
  return { tools, problems, made };
}
