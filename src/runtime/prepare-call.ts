import type { CallRequest } from '../policy/index.js';
import { type DerivedApprovalKeys, deriveCallApprovalKeys } from '../policy/index.js';
import type { RegisteredTool, ToolRegistry } from '../registry/index.js';
import { boundedMemo, normalizeResourceKey } from '../schedule/index.js';
import type { CallResult, ToolArguments, ValidationOutcome } from '../tool/index.js';
import { isPlainObject } from '../tool/index.js';
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

/** What a call prepares to: ready to schedule, or the result of a call that cannot run. */
export type Prepared = PreparedCall | CallResult;

const schemaFailed = (call: ToolCall, error: unknown): CallResult =>
  failedResult(
    call,
    'tool_error',
    `The input schema of tool "${call.name}" failed while validating: ${(error as Error)?.message ?? String(error)}.`,
  );

/** A failed result for a call whose keys its tool could not derive. */
const keysFailed = (call: ToolCall, error: unknown): CallResult =>
  failedResult(
    call,
    'tool_error',
    `Tool "${call.name}" could not derive the keys of this call: ${(error as Error)?.message ?? String(error)}.`,
  );

/** The prepared call, once its keys are known. */
const prepared = (
  call: ToolCall,
  registered: RegisteredTool,
  args: ToolArguments,
  resourceKeys: readonly string[],
  derived: DerivedApprovalKeys,
): PreparedCall => {
  // Filled in place rather than spread: no throwaway objects per call.
  const ready: { -readonly [K in keyof PreparedCall]: PreparedCall[K] } = {
    call,
    registered,
    id: call.id,
    name: call.name,
    tool: registered.tool,
    origin: registered.origin,
    trusted: registered.trusted,
    claimed: registered.claimed,
    effective: registered.effective,
    class: registered.class,
    arguments: args,
    resourceKeys,
    approvalKeys: derived.keys,
  };
  if (derived.opaque.length > 0) ready.opaque = derived.opaque;
  if (registered.requireApproval !== undefined) ready.requireApproval = registered.requireApproval;
  if (registered.blocked !== undefined) ready.blocked = registered.blocked;
  return ready;
};

/** How many normalized resource keys {@link keyList} remembers; then it starts over. */
const KEY_MEMO_SIZE = 4096;
/** Keys longer than this are normalized each time rather than remembered. */
const KEY_MEMO_LENGTH = 256;
/**
 * Normalized resource keys, each as a frozen list of itself: by workspace, then by the key
 * as the tool spelled it.
 */
const keyMemo = boundedMemo<string | undefined, readonly [string]>(KEY_MEMO_SIZE);

/**
 * `normalizeResourceKey`, remembered, as a frozen list of the one normalized key: the calls
 * of a batch mostly repeat a few keys, and a call on one key (the common case) then shares
 * that list as its resource keys instead of keeping its own list and string. A key is
 * remembered from its second call on (see `boundedMemo`).
 */
const keyList = (key: string, workspace: string | undefined): readonly [string] => {
  if (typeof key !== 'string' || key.length > KEY_MEMO_LENGTH) {
    return [normalizeResourceKey(key, workspace)];
  }
  const known = keyMemo.get(workspace, key);
  if (known !== undefined) return known;
  const list = Object.freeze([normalizeResourceKey(key, workspace)] as const);
  keyMemo.set(workspace, key, list);
  return list;
};

/** The resource keys of a call without any: one shared, frozen list. */
const NO_KEYS: readonly string[] = Object.freeze([]);

/**
 * The rest of preparing, once the arguments are validated: synchronous unless the tool's
 * `approvalKey` answers with a promise (a grammar that loads), which is then waited for.
 */
const finish = (
  call: ToolCall,
  registered: RegisteredTool,
  validated: ValidationOutcome<unknown>,
  context: PrepareContext,
): Prepared | Promise<Prepared> => {
  if (!validated.ok) {
    return failedResult(
      call,
      'invalid_arguments',
      `Invalid arguments for tool "${call.name}": ${validated.message}. Fix them to match the tool's input schema and call again.`,
    );
  }
  const { tool } = registered;
  const args = validated.value as ToolArguments;
  let resourceKeys: readonly string[];
  let derived: DerivedApprovalKeys | Promise<DerivedApprovalKeys>;
  try {
    const raw = tool.resources?.(args);
    resourceKeys =
      raw === undefined || raw.length === 0
        ? NO_KEYS
        : raw.length === 1
          ? keyList(raw[0] as string, context.workspace)
          : raw.map((key) => keyList(key, context.workspace)[0]);
    derived = deriveCallApprovalKeys(tool, args, resourceKeys);
  } catch (error) {
    return keysFailed(call, error);
  }
  if (derived instanceof Promise) {
    return derived.then(
      (keys) => prepared(call, registered, args, resourceKeys, keys),
      (error: unknown) => keysFailed(call, error),
    );
  }
  return prepared(call, registered, args, resourceKeys, derived);
};

/**
 * Resolves a call to its tool, parses and validates its arguments, and derives its
 * resource and approval keys. Returns a failed result for an unknown tool, bad arguments,
 * or keys the tool could not derive. Answers at once unless the tool's input schema
 * validates asynchronously or its `approvalKey` answers with a promise; never rejects.
 */
export function prepareCall(call: ToolCall, context: PrepareContext): Prepared | Promise<Prepared> {
  const registered = context.registry.resolve(call.name, { scopes: context.scopes });
  if (registered === undefined) return unknownTool(call, context);
  const parsed = parseArguments(call.arguments);
  if (typeof parsed === 'string') {
    return failedResult(
      call,
      'invalid_arguments',
      `Invalid arguments for tool "${call.name}": ${parsed}.`,
    );
  }
  let validated: ReturnType<typeof registered.tool.inputSchema.validate>;
  try {
    validated = registered.tool.inputSchema.validate(parsed);
  } catch (error) {
    return schemaFailed(call, error);
  }
  if (validated instanceof Promise) {
    return validated.then(
      (outcome) => finish(call, registered, outcome, context),
      (error: unknown) => schemaFailed(call, error),
    );
  }
  return finish(call, registered, validated, context);
}
