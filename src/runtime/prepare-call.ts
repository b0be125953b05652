import type { CallRequest } from '../policy/authorizer.js';
import { deriveCallApprovalKeys } from '../policy/derive-approval-keys.js';
import type { RegisteredTool, ToolRegistry } from '../registry/index.js';
import { normalizeResourceKey } from '../schedule/resource-key.js';
import type { OpaquePart } from '../tool/approval-keys.js';
import { isPlainObject } from '../tool/json-schema.js';
import type { ToolArguments } from '../tool/resource-template.js';
import type { CallResult } from '../tool/tool-result.js';
import { failedResult } from './call-result.js';
import type { ToolCall } from './tool-call.js';

/** What preparing needs from the runtime. */
export interface PrepareContext {
  readonly registry: ToolRegistry;
  readonly scopes: readonly string[];
  readonly workspace: string | undefined;
  /** Names the caller may see, for the message about an unknown tool (hidden ones stay out). */
  readonly visibleNames?: () => readonly string[];
}

/** A call that resolved to a visible tool and valid arguments. */
export interface PreparedCall extends CallRequest {
  readonly call: ToolCall;
  readonly registered: RegisteredTool;
}

const MAX_NAMES_LISTED = 40;

const parseArguments = (raw: unknown): ToolArguments | string => {
  if (raw === undefined || raw === null) return {};
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return `arguments are not valid JSON (${(error as Error).message}); send a JSON object`;
    }
  }
  if (!isPlainObject(value)) {
    return `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`;
  }
  return value;
};

const unknownTool = (call: ToolCall, context: PrepareContext): CallResult => {
  const names =
    context.visibleNames?.() ??
    context.registry.list({ scopes: context.scopes }).map((entry) => entry.name);
  const shown = names.slice(0, MAX_NAMES_LISTED).join(', ');
  const more =
    names.length > MAX_NAMES_LISTED ? `, and ${names.length - MAX_NAMES_LISTED} more` : '';
  return failedResult(
    call,
    'unknown_tool',
    `Unknown tool "${call.name}". ${names.length === 0 ? 'No tools are available.' : `Available tools: ${shown}${more}.`}`,
  );
};

/**
 * Resolves a call to its tool, parses and validates its arguments, and derives its
 * resource and approval keys. Returns a failed result for an unknown tool, bad arguments,
 * or keys the tool could not derive.
 */
export async function prepareCall(
  call: ToolCall,
  context: PrepareContext,
): Promise<PreparedCall | CallResult> {
  const registered = context.registry.resolve(call.name, { scopes: context.scopes });
  if (registered === undefined) return unknownTool(call, context);
  const { tool } = registered;
  const parsed = parseArguments(call.arguments);
  if (typeof parsed === 'string') {
    return failedResult(
      call,
      'invalid_arguments',
      `Invalid arguments for tool "${call.name}": ${parsed}.`,
    );
  }
  let validated: Awaited<ReturnType<typeof tool.inputSchema.validate>>;
  try {
    validated = await tool.inputSchema.validate(parsed);
  } catch (error) {
    return failedResult(
      call,
      'tool_error',
      `The input schema of tool "${call.name}" failed while validating: ${(error as Error)?.message ?? String(error)}.`,
    );
  }
  if (!validated.ok) {
    return failedResult(
      call,
      'invalid_arguments',
      `Invalid arguments for tool "${call.name}": ${validated.message}. Fix them to match the tool's input schema and call again.`,
    );
  }
  const args = validated.value as ToolArguments;
  let resourceKeys: string[];
  let approvalKeys: string[];
  let opaque: OpaquePart[];
  try {
    const raw = tool.resources?.(args) ?? [];
    resourceKeys = raw.map((key) => normalizeResourceKey(key, context.workspace));
    const derived = deriveCallApprovalKeys(tool, args, resourceKeys);
    // An asynchronous approvalKey (a grammar that loads) is waited for; a synchronous one
    // costs no extra turn of the microtask queue.
    ({ keys: approvalKeys, opaque } = derived instanceof Promise ? await derived : derived);
  } catch (error) {
    return failedResult(
      call,
      'tool_error',
      `Tool "${call.name}" could not derive the keys of this call: ${(error as Error)?.message ?? String(error)}.`,
    );
  }
  return {
    call,
    registered,
    id: call.id,
    name: call.name,
    tool,
    origin: registered.origin,
    trusted: registered.trusted,
    claimed: registered.claimed,
    effective: registered.effective,
    class: registered.class,
    arguments: args,
    resourceKeys,
    approvalKeys,
    ...(opaque.length === 0 ? {} : { opaque }),
    ...(registered.requireApproval === undefined
      ? {}
      : { requireApproval: registered.requireApproval }),
  };
}
