import { randomUUID } from 'node:crypto';
import type { AuditSink } from '../audit/audit-event.js';
import { buildSystemPrompt } from '../prompt/index.js';
import { deniedMessage } from '../runtime/authorize-batch.js';
import { callEvent, resultFields } from '../runtime/call-event.js';
import { failedResult } from '../runtime/call-result.js';
import type { ExecuteOptions, Runtime, ToolCall, Turn } from '../runtime/index.js';
import { validateBatch } from '../runtime/validate-batch.js';
import { validateCall } from '../runtime/validate-call.js';
import type { CallResult } from '../tool/tool-result.js';

/** Options of {@link withBlockedTools}. */
export interface BlockedToolsOptions {
  /**
   * Why a tool name is blocked, or `undefined` when it is not. Asked on every listing and
   * call, so the answer may change at any time.
   */
  readonly blocked: (name: string) => string | undefined;
  /** Sinks that record the refused calls (`call.failed`, decision `deny`). Default none. */
  readonly auditSinks?: readonly AuditSink[];
  /** Put arguments (secrets redacted) into those events, not only their digest. Default false. */
  readonly auditArguments?: boolean;
}

/**
 * A runtime that hides blocked tools and refuses calls to them. Blocked tools stay in the
 * registry (so a call by their name is not mistaken for a typo), but are neither listed
 * nor part of the system prompt, and a call to one ends `denied` with the reason and what
 * to do, without reaching the policy, the approver or the tool. Everything else is the
 * wrapped runtime's.
 */
export function withBlockedTools(runtime: Runtime, options: BlockedToolsOptions): Runtime {
  const { blocked } = options;
  const sinks = options.auditSinks ?? [];
  const includeArguments = options.auditArguments === true;

  const refuse = async (
    call: ToolCall,
    reason: string,
    batchId: string,
    caller: ExecuteOptions['caller'],
  ): Promise<CallResult> => {
    const result = failedResult(call, 'denied', deniedMessage(call.name, reason));
    const origin = runtime.registry.resolve(call.name)?.origin;
    const event = callEvent(
      'call.failed',
      batchId,
      call,
      {
        ...(caller === undefined ? {} : { caller }),
        ...(origin === undefined ? {} : { origin }),
        decision: 'deny',
        reason,
        ...resultFields(result),
      },
      includeArguments,
    );
    await Promise.all(sinks.map((sink) => sink.write(event)));
    return result;
  };

  /** A batch with blocked calls: those are refused and audited, the others run. */
  const executeWithBlocked = async (
    calls: readonly ToolCall[],
    reasons: readonly (string | undefined)[],
    executeOptions: ExecuteOptions | undefined,
  ): Promise<CallResult[]> => {
    const batchId = randomUUID();
    const allowed = calls.filter((_, index) => reasons[index] === undefined);
    const [ran, refused] = await Promise.all([
      allowed.length === 0 ? [] : runtime.execute(allowed, executeOptions),
      Promise.all(
        calls.map((call, index) => {
          const reason = reasons[index];
          return reason === undefined
            ? undefined
            : refuse(call, reason, batchId, executeOptions?.caller);
        }),
      ),
    ]);
    let next = 0;
    return refused.map((result) => result ?? (ran[next++] as CallResult));
  };

  /** A turn whose calls to blocked tools are refused and audited, the others run. */
  const turnWithBlocked = (inner: Turn, caller: ExecuteOptions['caller']): Turn => {
    const calls: Promise<CallResult>[] = [];
    return {
      id: inner.id,
      call(call, callOptions) {
        let reason: string | undefined;
        try {
          validateCall(call, 'call(toolCall)');
          reason = blocked(call.name);
        } catch (error) {
          return Promise.reject(error);
        }
        const result =
          reason === undefined
            ? inner.call(call, callOptions)
            : refuse(call, reason, inner.id, caller);
        result.catch(() => {});
        calls.push(result);
        return result;
      },
      end() {
        const ran = inner.end();
        ran.catch(() => {});
        return ran.then(() => Promise.all(calls));
      },
    };
  };

  const listTools: Runtime['listTools'] = (listOptions) =>
    runtime.listTools(listOptions).filter((listing) => blocked(listing.name) === undefined);

  return {
    get registry() {
      return runtime.registry;
    },
    get mode() {
      return runtime.mode;
    },
    setMode: (mode) => runtime.setMode(mode),
    plan: (calls, planOptions) => runtime.plan(calls, planOptions),
    forgetSession: (session) => runtime.forgetSession(session),
    turn: (turnOptions) => turnWithBlocked(runtime.turn(turnOptions), turnOptions?.caller),
    decide(call, decideOptions) {
      let reason: string | undefined;
      try {
        reason = typeof call?.name === 'string' ? blocked(call.name) : undefined;
      } catch (error) {
        return Promise.reject(error);
      }
      if (reason === undefined) return runtime.decide(call, decideOptions);
      const message = deniedMessage(call.name, reason);
      return Promise.resolve({ id: call.id, name: call.name, decision: 'deny', reason, message });
    },
    close: (closeOptions) => runtime.close(closeOptions),
    listTools,
    systemPrompt(promptOptions = {}) {
      const scopes = promptOptions.scopes === undefined ? {} : { scopes: promptOptions.scopes };
      const tools = listTools(scopes).map((listing) => {
        const effective = runtime.registry.resolve(listing.name, scopes)?.effective;
        return { ...listing, ...(effective === undefined ? {} : { effective }) };
      });
      return buildSystemPrompt({
        tools,
        ...(runtime.mode === undefined ? {} : { mode: runtime.mode }),
        ...(promptOptions.intro === undefined ? {} : { intro: promptOptions.intro }),
      });
    },
    execute(calls, executeOptions) {
      // Not an async function: a batch with nothing blocked gets the runtime's own promise.
      // Whatever throws on the way still comes as a rejected promise, as from one.
      try {
        validateBatch(calls);
        const reasons = calls.map((call) => blocked(call.name));
        if (reasons.every((reason) => reason === undefined)) {
          return runtime.execute(calls, executeOptions);
        }
        return executeWithBlocked(calls, reasons, executeOptions);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
