import { resolve as resolvePath } from 'node:path';
import { createAuditEmitter } from '../audit/audit-emitter.js';
import { HintgateError } from '../errors/hintgate-error.js';
import { createApprovalStore } from '../policy/approval-store.js';
import type { Authorizer } from '../policy/authorizer.js';
import { createPolicy, type PolicyAuthorizer } from '../policy/create-policy.js';
import { isOffered } from '../policy/decide-call.js';
import { buildSystemPrompt } from '../prompt/build-system-prompt.js';
import { createRegistry, type ToolRegistry } from '../registry/index.js';
import { AbortScope } from '../schedule/abort-scope.js';
import { callLocks } from '../schedule/call-locks.js';
import { systemClock } from '../schedule/clock.js';
import { Scheduler } from '../schedule/scheduler.js';
import { MAX_TIMER_MS } from '../tool/max-timer-ms.js';
import { ownValue } from '../tool/own-value.js';
import { toToolListing } from '../tool/to-tool-listing.js';
import type { CallResult } from '../tool/tool-result.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../tool/truncate-output.js';
import { ArrivalOrder } from './arrival-order.js';
import { deniedMessage } from './authorize-batch.js';
import { CallPipeline, type TurnContext } from './call-pipeline.js';
import { checkCallerOptions } from './check-caller-options.js';
import { checkExecuteOptions } from './check-execute-options.js';
import { graceMsOf } from './close-options.js';
import { createTurn } from './create-turn.js';
import { decidePolicy } from './decide-policy.js';
import { planBatch } from './plan-batch.js';
import { type PreparedCall, prepareCall } from './prepare-call.js';
import { DEFAULT_RETRY, resolveRetry } from './retry-delay.js';
import type { CallDecision, DecideOptions, ExecuteOptions, Runtime } from './runtime.js';
import { checkRuntimeOptions, type RuntimeOptions, type TrustOptions } from './runtime-options.js';
import type { ToolCall } from './tool-call.js';
import { validateBatch } from './validate-batch.js';
import { validateCall } from './validate-call.js';

/** Applies trust settings to the registry: origin flags, and trusted annotation overrides. */
const applyTrust = (registry: ToolRegistry, trust: TrustOptions | undefined): void => {
  for (const [origin, trusted] of Object.entries(trust?.origins ?? {})) {
    registry.setTrusted(origin, trusted);
  }
  for (const [name, annotations] of Object.entries(trust?.tools ?? {})) {
    registry.configure(name, { ...registry.config(name), annotations });
  }
};

/** Default timeout of a call, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RELEASE_GRACE_MS = 2_000;

/**
 * Creates a runtime: hand it the tool calls of one model turn with `execute` (or one at a
 * time with `turn`) and it validates, admits in arrival order, authorizes, schedules
 * (conflicting calls in order, independent calls at once) and runs them, and returns one
 * result per call, in call order.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  checkRuntimeOptions(options);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  let registry: ToolRegistry;
  if (options.registry === undefined) {
    registry = createRegistry();
    registry.addOrigin({
      name: 'local',
      layer: 'project',
      trusted: true,
      tools: options.tools ?? [],
    });
  } else {
    registry = options.registry;
  }
  const scheduler = new Scheduler({ clock });
  const audit = createAuditEmitter(options.auditSinks ?? []);
  applyTrust(registry, options.trust);
  const policy: PolicyAuthorizer | undefined =
    options.authorizer === undefined
      ? createPolicy({
          ...(options.mode === undefined ? {} : { mode: options.mode }),
          ...(options.rules === undefined ? {} : { rules: options.rules }),
          ...(options.approver === undefined ? {} : { approver: options.approver }),
          ...(options.approvalTimeoutMs === undefined
            ? {}
            : { approvalTimeoutMs: options.approvalTimeoutMs }),
          ...(options.approvals !== undefined
            ? { approvals: options.approvals }
            : options.approvalsFile === undefined
              ? {}
              : { approvals: createApprovalStore({ path: resolvePath(options.approvalsFile) }) }),
          ...(options.sharedSessions === undefined
            ? {}
            : { sharedSessions: options.sharedSessions }),
        })
      : undefined;
  const authorizer: Authorizer = options.authorizer ?? (policy as PolicyAuthorizer);
  const workspace = resolvePath(options.workspace ?? process.cwd());
  const retry = resolveRetry(options.retry, DEFAULT_RETRY);
  const defaultScopes = options.scopes ?? [];
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const releaseGraceMs = options.releaseGraceMs ?? DEFAULT_RELEASE_GRACE_MS;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const includeArguments = options.auditArguments === true;

  const unsubscribe = registry.onChange((changes) => {
    for (const change of changes) {
      audit.emit({
        type: 'tool.changed',
        time: new Date().toISOString(),
        tool: change.name,
        origin: change.origin,
        change: change.type,
      });
    }
  });

  /**
   * Concurrency cap per origin: the runtime's, else the origin's, else by trust; 1 for an
   * origin the registry does not know. Each origin is looked up once per turn, when asked.
   */
  const concurrencyCaps = (): ((origin: string) => number) => {
    const caps = new Map<string, number>();
    return (name) => {
      let cap = caps.get(name);
      if (cap === undefined) {
        const origin = registry.origin(name);
        const trustedDefault = origin?.trusted === true ? Number.POSITIVE_INFINITY : 1;
        cap =
          origin === undefined
            ? 1
            : (ownValue(options.concurrency, name) ?? origin.concurrency ?? trustedDefault);
        caps.set(name, cap);
      }
      return cap;
    };
  };

  /** Registered tools the caller may call, in the current mode. */
  const visible = (scopes: readonly string[] | undefined) => {
    const mode = policy?.mode;
    return registry
      .list({ scopes: scopes ?? defaultScopes })
      .filter((entry) => isOffered(entry, mode));
  };

  const prepareOne = (call: ToolCall, scopes: readonly string[]) =>
    prepareCall(call, {
      registry,
      scopes,
      workspace,
      visibleNames: () => visible(scopes).map((entry) => entry.name),
    });

  const locksOf = (prepared: PreparedCall) =>
    callLocks({
      origin: prepared.origin,
      class: prepared.class,
      openWorld: prepared.effective.openWorldHint,
      resourceKeys: prepared.resourceKeys,
      ...(options.serializeOpenWorldWrites === undefined
        ? {}
        : { serializeOpenWorldWrites: options.serializeOpenWorldWrites }),
    });

  const context: TurnContext = {
    registry,
    scheduler,
    arrivals: new ArrivalOrder(),
    audit,
    authorizer,
    clock,
    random,
    workspace,
    includeArguments,
    retry,
    maxOutputChars,
    releaseGraceMs,
    defaultTimeoutMs,
    locksOf,
    concurrencyCaps,
    visibleNames: (scopes) => visible(scopes).map((entry) => entry.name),
  };

  /** Calls and batches under way, each with the scope that cancels it when the runtime closes. */
  const running = new Map<Promise<unknown>, AbortScope>();
  let closing: Promise<void> | undefined;
  const track = (work: Promise<unknown>, scope: AbortScope): void => {
    running.set(work, scope);
    const done = (): void => {
      running.delete(work);
    };
    work.then(done, done);
  };

  const closedError = (method: string): HintgateError =>
    new HintgateError(
      'runtime_closed',
      `${method}: this runtime is shutting down or closed, so it takes no more calls; run them once it (or a new one) is up again.`,
    );

  const execute = (
    calls: readonly ToolCall[],
    executeOptions: ExecuteOptions = {},
  ): Promise<CallResult[]> => {
    if (closing !== undefined) return Promise.reject(closedError('execute'));
    try {
      validateBatch(calls);
      checkExecuteOptions(executeOptions, 'execute');
    } catch (error) {
      return Promise.reject(error);
    }
    const stop = new AbortScope();
    const unlink =
      executeOptions.signal === undefined ? undefined : stop.follow(executeOptions.signal);
    // A turn given all its calls at once: admitted in call order, in one synchronous pass,
    // so the batch keeps its order in the lock manager against batches that arrive meanwhile.
    const pipeline = new CallPipeline(context, {
      scopes: executeOptions.scopes ?? defaultScopes,
      approver: executeOptions.approver,
      session: executeOptions.session,
      caller: executeOptions.caller,
      signal: stop,
      eachCall: false,
    });
    // The batch keeps the tools it started with: reloads of tool modules wait for it.
    const leave = registry.holdTurn();
    const results = calls.map((call) => pipeline.arrive(call));
    // then rather than finally: one turn of the microtask queue less for every batch.
    const finish = (settled: CallResult[]): CallResult[] => {
      running.delete(batch);
      unlink?.();
      leave();
      return settled;
    };
    const fail = (error: unknown): never => {
      running.delete(batch);
      unlink?.();
      leave();
      throw error;
    };
    const batch = Promise.all(results)
      .then((settled) => pipeline.endBatch(settled))
      .then(finish, fail);
    running.set(batch, stop);
    return batch;
  };

  const decide = async (
    call: ToolCall,
    decideOptions: DecideOptions = {},
  ): Promise<CallDecision> => {
    validateCall(call, 'decide(call)');
    checkExecuteOptions(decideOptions, 'decide');
    const prepared = await prepareOne(call, decideOptions.scopes ?? defaultScopes);
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
    const { session } = decideOptions;
    const decision = await decidePolicy(
      prepared,
      authorizer,
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
  };

  return {
    registry,
    execute,
    turn(turnOptions = {}) {
      if (closing !== undefined) throw closedError('turn');
      checkExecuteOptions(turnOptions, 'turn');
      return createTurn(context, turnOptions, {
        defaultScopes,
        closing: () => closing !== undefined,
        track,
        hold: () => registry.holdTurn(),
      });
    },
    decide,
    async plan(calls, planOptions = {}) {
      validateBatch(calls);
      checkCallerOptions(planOptions, 'plan');
      const scopes = planOptions.scopes ?? defaultScopes;
      const prepared = await Promise.all(calls.map((call) => prepareOne(call, scopes)));
      return planBatch(prepared, locksOf);
    },
    get mode() {
      return policy?.mode;
    },
    setMode(mode) {
      if (policy === undefined) {
        throw new HintgateError(
          'invalid_option',
          'setMode needs the built-in policy engine; this runtime was given a custom authorizer.',
        );
      }
      policy.setMode(mode);
    },
    listTools(listOptions = {}) {
      checkCallerOptions(listOptions, 'listTools');
      return visible(listOptions.scopes).map((entry) => toToolListing(entry.tool));
    },
    systemPrompt(promptOptions = {}) {
      checkCallerOptions(promptOptions, 'systemPrompt');
      return buildSystemPrompt({
        tools: visible(promptOptions.scopes).map((entry) => ({
          ...toToolListing(entry.tool),
          effective: entry.effective,
        })),
        ...(policy === undefined ? {} : { mode: policy.mode }),
        ...(promptOptions.intro === undefined ? {} : { intro: promptOptions.intro }),
      });
    },
    forgetSession(session) {
      policy?.forgetSession(session);
    },
    close(closeOptions) {
      let graceMs: number;
      try {
        graceMs = graceMsOf(closeOptions, 'close');
      } catch (error) {
        return Promise.reject(error);
      }
      closing ??= (async () => {
        unsubscribe();
        const settled = (): Promise<unknown> => Promise.allSettled([...running.keys()]);
        if (running.size > 0 && graceMs > 0) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            settled(),
            new Promise((resolveGrace) => {
              timer = setTimeout(resolveGrace, Math.min(graceMs, MAX_TIMER_MS));
            }),
          ]);
          clearTimeout(timer);
        }
        const reason = new HintgateError(
          'runtime_closed',
          'the runtime was closed while the call was under way',
        );
        for (const stop of running.values()) stop.abort(reason);
        await settled();
        // Tool modules' dispose, once no call of theirs is under way.
        await registry.close();
        await audit.close();
      })();
      return closing;
    },
  };
}
