import { HintgateError } from '../../errors/index.js';
import type { Runtime } from '../../runtime/index.js';
import { isPlainObject } from '../../tool/index.js';

/** Options of {@link createAgentsTools}. */
export interface AgentsToolsOptions {
  /**
   * The runtime whose tools become the agent's function tools: its local tools and the
   * remote MCP tools of its registry, as `runtime.listTools()` lists them (in mode `plan`,
   * read-only tools only). Every call goes through this runtime: policy, approvals,
   * scheduling, timeouts, retries and audit.
   */
  readonly runtime: Runtime;
  /** The caller's scopes, for which tools are listed, decided and run. Default: the runtime's. */
  readonly scopes?: readonly string[];
  /**
   * The hintgate session the calls belong to, for approvals remembered "for the session"
   * (see `ExecuteOptions.session`): absent, the runtime's own; a string, a separate one (for
   * example one per conversation); `null`, none.
   */
  readonly session?: string | null;
  /**
   * Whether the tools use the SDK's strict mode, in which the model's arguments follow the
   * schema exactly. `'auto'` (default): strict wherever the SDK can make the tool's schema
   * strict, plain JSON Schema elsewhere (schemas with `oneOf`, `allOf`, `not`,
   * `patternProperties`, ...). `true`: strict for every tool, throwing for a schema that
   * cannot be. `false`: never.
   */
  readonly strict?: boolean | 'auto';
  /**
   * How hintgate remembers a call the person approved with `state.approve(item, {
   * alwaysApprove: true })`, which the SDK applies to the tool for the rest of the run:
   * `'session'` (default) for the session, `'always'` in the runtime's `approvalsFile`. An
   * approval without `alwaysApprove` counts for its call only.
   */
  readonly alwaysApprove?: 'session' | 'always';
}

const KNOWN = new Set(['runtime', 'scopes', 'session', 'strict', 'alwaysApprove']);

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `createAgentsTools: ${message}`);
};

const shown = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : typeof value;

const isRuntime = (value: unknown): value is Runtime => {
  if (typeof value !== 'object' || value === null) return false;
  const { turn, decide, listTools } = value as Record<string, unknown>;
  return (
    typeof turn === 'function' && typeof decide === 'function' && typeof listTools === 'function'
  );
};

/**
 * Checks the options of {@link createAgentsTools}.
 *
 * @throws HintgateError `invalid_option` saying which option is wrong and what it takes.
 */
export function checkAgentsToolsOptions(options: unknown): asserts options is AgentsToolsOptions {
  if (!isPlainObject(options)) invalid('expects one options object, e.g. { runtime }.');
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) {
      invalid(`unknown option "${key}". Known options: ${[...KNOWN].join(', ')}.`);
    }
  }
  if (!isRuntime(o.runtime)) invalid('runtime must be a runtime made by createRuntime().');
  const { scopes, session, strict, alwaysApprove } = o;
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  ) {
    invalid('scopes must be a list of scope names such as ["customers.read"].');
  }
  if (session !== undefined && session !== null && typeof session !== 'string') {
    invalid('session must be a string (a session of its own), null (none) or left out.');
  }
  if (strict !== undefined && typeof strict !== 'boolean' && strict !== 'auto') {
    invalid(`strict must be true, false or 'auto', not ${shown(strict)}.`);
  }
  if (alwaysApprove !== undefined && alwaysApprove !== 'session' && alwaysApprove !== 'always') {
    invalid(`alwaysApprove must be 'session' or 'always', not ${shown(alwaysApprove)}.`);
  }
}
