import type { Authorizer } from '../policy/index.js';
import { deniedMessage } from './authorize-batch.js';
import { checkExecuteOptions } from './check-execute-options.js';
import { decidePolicy } from './decide-policy.js';
import type { Prepared } from './prepare-call.js';
import type { CallDecision, DecideOptions } from './runtime.js';
import type { ToolCall } from './tool-call.js';
import { validateCall } from './validate-call.js';

/** What {@link previewDecision} needs of the runtime. */
export interface PreviewRuntime {
  /** The runtime's authorizer (its policy engine or the custom hook). */
  readonly authorizer: Authorizer;
  /** Scopes of a caller that gives none. */
  readonly defaultScopes: readonly string[];
  /** Prepares a call as the pipeline does (resolve, validate, keys). */
  prepare(call: ToolCall, scopes: readonly string[]): Prepared | Promise<Prepared>;
}

/**
 * `runtime.decide`: what the policy would decide for a call now, without running it or
 * asking anyone (prepare, then the policy's decision); a call that cannot run is a denial.
 */
export async function previewDecision(
  runtime: PreviewRuntime,
  call: ToolCall,
  options: DecideOptions,
): Promise<CallDecision> {
  validateCall(call, 'decide(call)');
  checkExecuteOptions(options, 'decide');
  const prepared = await runtime.prepare(call, options.scopes ?? runtime.defaultScopes);
  if (!('registered' in prepared)) {
    const error = prepared.error ?? {
      code: 'tool_error' as const,
      message: 'the call cannot run',
    };
    return {
      id: call.id,
      name: call.name,
      decision: 'deny',
      reason: error.message,
      message: error.message,
      error,
    };
  }
  const { session } = options;
  const decision = await decidePolicy(
    prepared,
    runtime.authorizer,
    session === undefined ? {} : { session },
  );
  return {
    id: call.id,
    name: call.name,
    decision: decision.decision,
    reason: decision.reason,
    ...(decision.decision === 'deny'
      ? { message: deniedMessage(call.name, decision.reason, decision.message) }
      : {}),
    origin: prepared.origin,
    class: prepared.class,
    approvalKeys: prepared.approvalKeys,
  };
}
