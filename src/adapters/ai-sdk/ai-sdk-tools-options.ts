import { HintgateError } from '../../errors/index.js';
import type { RememberScope } from '../../policy/index.js';
import type { Runtime } from '../../runtime/index.js';
import { isPlainObject } from '../../tool/index.js';

/** Options of {@link createAiSdkTools}. */
export interface AiSdkToolsOptions {
  /**
   * The runtime whose tools become the AI SDK tools: its local tools and the remote MCP
   * tools of its registry, as `runtime.listTools()` lists them when the tools are made (in
   * mode `plan`, read-only tools only). Every call goes through this runtime: policy,
   * approvals, scheduling, timeouts, retries and audit.
   */
  readonly runtime: Runtime;
  /** The caller's scopes, for which tools are listed, decided and run. Default: the runtime's. */
  readonly scopes?: readonly string[];
  /**
   * The hintgate session the calls belong to, for approvals remembered "for the session"
   * (see `ExecuteOptions.session`): absent, the runtime's own; a string, a separate one (for
   * example the chat's id); `null`, none.
   */
  readonly session?: string | null;
  /**
   * How long hintgate remembers an approval given through the AI SDK when the answer does
   * not say (an answer made with `approvalResponse({ remember })` does): `once` (default),
   * `session` or `always`.
   */
  readonly remember?: RememberScope;
  /**
   * How long a call of a step waits for an earlier call of the step whose approval was
   * checked but whose `execute` never came (the SDK dropped it), in milliseconds, counted
   * from the last call of the step that came. Default 1000.
   */
  readonly orderGraceMs?: number;
}

/** The longest delay a Node timer takes. */
const MAX_TIMER_MS = 2_147_483_647;

const KNOWN = new Set(['runtime', 'scopes', 'session', 'remember', 'orderGraceMs']);

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `createAiSdkTools: ${message}`);
};

const isRuntime = (value: unknown): value is Runtime => {
  if (typeof value !== 'object' || value === null) return false;
  const { turn, decide, plan, listTools } = value as Record<string, unknown>;
  return [turn, decide, plan, listTools].every((method) => typeof method === 'function');
};

/**
 * Checks the options of {@link createAiSdkTools}.
 *
 * @throws HintgateError `invalid_option` saying which option is wrong and what it takes.
 */
export function checkAiSdkToolsOptions(options: unknown): asserts options is AiSdkToolsOptions {
  if (!isPlainObject(options)) invalid('expects one options object, e.g. { runtime }.');
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) {
      invalid(`unknown option "${key}". Known options: ${[...KNOWN].join(', ')}.`);
    }
  }
  if (!isRuntime(o.runtime)) invalid('runtime must be a runtime made by createRuntime().');
  const { scopes, session, remember, orderGraceMs } = o;
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  ) {
    invalid('scopes must be a list of scope names such as ["customers.read"].');
  }
  if (session !== undefined && session !== null && typeof session !== 'string') {
    invalid('session must be a string (a session of its own), null (none) or left out.');
  }
  if (remember !== undefined && !['once', 'session', 'always'].includes(remember as string)) {
    invalid(`remember must be 'once', 'session' or 'always', not ${JSON.stringify(remember)}.`);
  }
  if (
    orderGraceMs !== undefined &&
    !(typeof orderGraceMs === 'number' && orderGraceMs >= 0 && orderGraceMs <= MAX_TIMER_MS)
  ) {
    invalid(`orderGraceMs must be a number of milliseconds in [0, ${MAX_TIMER_MS}].`);
  }
}
