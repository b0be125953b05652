import { HintgateError } from '../../errors/index.js';
import type { Runtime } from '../../runtime/index.js';
import { isPlainObject } from '../../tool/index.js';

/** Options of {@link createLangChainTools} and {@link createHintgateMiddleware}. */
export interface LangChainToolsOptions {
  /**
   * The runtime whose tools become LangChain tools: its local tools and the remote MCP
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
   * example one per conversation thread); `null`, none.
   */
  readonly session?: string | null;
}

const KNOWN = new Set(['runtime', 'scopes', 'session']);

const isRuntime = (value: unknown): value is Runtime => {
  if (typeof value !== 'object' || value === null) return false;
  const { turn, decide, listTools } = value as Record<string, unknown>;
  return (
    typeof turn === 'function' && typeof decide === 'function' && typeof listTools === 'function'
  );
};

/**
 * Checks the options of {@link createLangChainTools} or {@link createHintgateMiddleware}
 * (`where` names the function in the message).
 *
 * @throws HintgateError `invalid_option` saying which option is wrong and what it takes.
 */
export function checkLangChainToolsOptions(
  options: unknown,
  where: string,
): asserts options is LangChainToolsOptions {
  const invalid = (message: string): never => {
    throw new HintgateError('invalid_option', `${where}: ${message}`);
  };
  if (!isPlainObject(options)) invalid('expects one options object, e.g. { runtime }.');
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) {
      invalid(`unknown option "${key}". Known options: ${[...KNOWN].join(', ')}.`);
    }
  }
  if (!isRuntime(o.runtime)) invalid('runtime must be a runtime made by createRuntime().');
  const { scopes, session } = o;
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  ) {
    invalid('scopes must be a list of scope names such as ["customers.read"].');
  }
  if (session !== undefined && session !== null && typeof session !== 'string') {
    invalid('session must be a string (a session of its own), null (none) or left out.');
  }
}
