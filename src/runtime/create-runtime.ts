import { randomUUID } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import { createAuditEmitter } from '../audit/audit-emitter.js';
import type { AuditEvent, AuditEventType, AuditWriteOptions } from '../audit/audit-event.js';
import { HintgateError } from '../errors/hintgate-error.js';
import { createApprovalStore } from '../policy/approval-store.js';
import type { Authorizer, Decision } from '../policy/authorizer.js';
import { createPolicy, type PolicyAuthorizer } from '../policy/create-policy.js';
import { visibleInMode } from '../policy/decide-call.js';
import { buildSystemPrompt } from '../prompt/build-system-prompt.js';
import { createRegistry, type ToolRegistry } from '../registry/index.js';
import { AbortScope, type AbortWatch } from '../schedule/abort-scope.js';
import { callLocks } from '../schedule/call-locks.js';
import { systemClock } from '../schedule/clock.js';
import { Scheduler } from '../schedule/scheduler.js';
import { MAX_TIMER_MS } from '../tool/max-timer-ms.js';
import { ownValue } from '../tool/own-value.js';
import { toToolListing } from '../tool/to-tool-listing.js';
import type { CallResult } from '../tool/tool-result.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../tool/truncate-output.js';
import { AuditWriteError } from './audit-write-error.js';
import { type Authorization, authorizeBatch } from './authorize-batch.js';
import { callEvent, resultFields } from './call-event.js';
import { failedResult } from './call-result.js';
import { graceMsOf } from './close-options.js';
import { planBatch } from './plan-batch.js';
import { type PreparedCall, prepareCall } from './prepare-call.js';
import { DEFAULT_RETRY, resolveRetry } from './retry-delay.js';
import { runCall } from './run-call.js';
import type { ExecuteOptions, Runtime } from './runtime.js';
import { checkRuntimeOptions, type RuntimeOptions, type TrustOptions } from './runtime-options.js';
import type { ToolCall } from './tool-call.js';
import { validateBatch } from './validate-batch.js';

/** Applies trust settings to the registry: origin flags, and trusted annotation overrides. */
const applyTrust = (registry: ToolRegistry, trust: TrustOptions | undefined): void => {
  for (const [origin, trusted] of Object.entries(trust?.origins ?? {})) {
    registry.setTrusted(origin, trusted);
  }
  for (const [name, annotations] of Object.entries(trust?.tools ?? {})) {
    registry.configure(name, { ...registry.config(name), annotations });
  }
};

/** Checks the options object of a runtime method: an object, with scopes a list of names. */
const checkCallerOptions = (options: unknown, method: string): void => {
  if (typeof options !== 'object' || options === null) {
    throw new HintgateError(
      'invalid_option',
      `${method}: options must be an object, e.g. { scopes: ['customers.read'] }.`,
    );
  }
  const { scopes } = options as { scopes?: unknown };
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  ) {
    throw new HintgateError(
      'invalid_option',
      `${method}: scopes must be a list of scope names such as ["customers.read"], not ${JSON.stringify(scopes)}.`,
    );
  }
};

const DEFERRED: AuditWriteOptions = Object.freeze({ deferSync: true });
const noop = (): void => {};

const DEFERRED_READ_ONLY: AuditWriteOptions = Object.freeze({ deferSync: true, readOnly: true });
const READ_ONLY: AuditWriteOptions = Object.freeze({ readOnly: true });

/**
 * What the sinks are told of a call's event: whether the runtime waits for it only with the
 * call's last event (`deferSync`), and whether the call changes nothing (`readOnly`).
 */
const writeOptionsOf = (last: boolean, readOnly: boolean): AuditWriteOptions | undefined => {
  if (readOnly) return last ? READ_ONLY : DEFERRED_READ_ONLY;
  return last ? undefined : DEFERRED;
};

/** Default timeout of a call, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RELEASE_GRACE_MS = 2_000;

/**
 * Creates a runtime: hand it the tool calls of one model turn with `execute` and it
 * validates, authorizes, schedules (conflicting calls in order, independent calls at once)
 * and runs them, and returns one result per call, in call order.
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
          ...(options.approvalsFile === undefined
            ? {}
            : { approvals: createApprovalStore({ path: resolvePath(options.approvalsFile) }) }),
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
   * origin the registry does not know. Each origin is looked up once per batch, when asked.
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
      .filter((entry) => mode === undefined || visibleInMode(entry.class, mode));
  };

  const prepareAll = (calls: readonly ToolCall[], scopes: readonly string[]) => {
    const visibleNames = () => visible(scopes).map((entry) => entry.name);
    return Promise.all(
      calls.map((call) => prepareCall(call, { registry, scopes, workspace, visibleNames })),
    );
  };

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

  const schedule = (
    call: PreparedCall,
    authorization: Authorization,
    context: {
      signal: AbortWatch | undefined;
      capOf: (origin: string) => number;
      /**
       * Writes the call's `call.started` event, or with `late` holds it (see
       * `AuditEmitter.hold`) and returns what writes it.
       */
      startEvent: (call: PreparedCall, extra: Partial<AuditEvent>, late: boolean) => () => void;
    },
  ): CallResult | Promise<CallResult> => {
    if (!authorization.allowed) return authorization.result;
    const { signal } = context;
    const admission = scheduler.admit({
      id: call.id,
      locks: locksOf(call),
      origin: call.origin,
      concurrency: context.capOf(call.origin),
      ...(call.tool.rateLimit === undefined
        ? {}
        : { rateLimit: { key: `${call.origin}\u0000${call.name}`, limit: call.tool.rateLimit } }),
      ...(signal === undefined ? {} : { signal }),
    });
    const { decision } = authorization;
    return admission.granted.then((grant) => {
      if (!grant.ok) {
        const message = `Tool "${call.name}" did not run: ${grant.message}`;
        return failedResult(call, grant.reason, message, { queuedMs: grant.queuedMs });
      }
      // Sinks that hold a read-only call's call.started until their next write show it
      // after the tool started anyway: it is written once the tool is invoked (or before
      // any event the tool's start causes), not before.
      const writeStarted = context.startEvent(
        call,
        { decision: decision.decision, reason: decision.reason, queuedMs: grant.queuedMs },
        call.class === 'read' && audit.holdsReadOnlyStarts,
      );
      const { lease } = grant;
      const running = runCall(call, lease, {
        clock,
        random,
        signal,
        timeoutMs: call.call.timeoutMs ?? call.tool.timeoutMs ?? defaultTimeoutMs,
        maxOutputChars,
        retry: resolveRetry(call.tool.retry, retry),
        releaseGraceMs,
        queuedMs: grant.queuedMs,
      }).catch((error: unknown) => {
        // A bug of ours must not leak the call's locks or reject the batch.
        lease.settle(false);
        lease.release();
        const reason = error instanceof Error ? error.message : String(error);
        return failedResult(
          call,
          'tool_error',
          `Tool "${call.name}" failed inside hintgate: ${reason}.`,
          {
            attempts: 1,
            queuedMs: grant.queuedMs,
          },
        );
      });
      writeStarted();
      return running;
    });
  };

  /** Batches under way, each with the scope that cancels it when the runtime closes. */
  const running = new Map<Promise<unknown>, AbortScope>();
  let closing: Promise<void> | undefined;

  const execute = (
    calls: readonly ToolCall[],
    executeOptions: ExecuteOptions = {},
  ): Promise<CallResult[]> => {
    if (closing !== undefined) {
      return Promise.reject(
        new HintgateError(
          'runtime_closed',
          'execute: this runtime is shutting down or closed, so it takes no more calls; run them once it (or a new one) is up again.',
        ),
      );
    }
    const stop = new AbortScope();
    // Options that are no object are refused by executeBatch, as a rejection.
    const callerSignal: unknown = (executeOptions as ExecuteOptions | null | undefined)?.signal;
    const onCallerAbort = (): void => stop.abort((callerSignal as AbortSignal).reason);
    if (callerSignal instanceof AbortSignal) {
      if (callerSignal.aborted) onCallerAbort();
      else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
    }
    const done = (): void => {
      running.delete(batch);
      if (callerSignal instanceof AbortSignal) {
        callerSignal.removeEventListener('abort', onCallerAbort);
      }
    };
    // then rather than finally: one turn of the microtask queue less for every batch.
    const batch = executeBatch(calls, executeOptions, stop).then(
      (results) => {
        done();
        return results;
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
    running.set(batch, stop);
    return batch;
  };

  const executeBatch = async (
    calls: readonly ToolCall[],
    executeOptions: ExecuteOptions,
    signal: AbortScope,
  ): Promise<CallResult[]> => {
    validateBatch(calls);
    checkCallerOptions(executeOptions, 'execute');
    const { session } = executeOptions;
    if (session !== undefined && session !== null && typeof session !== 'string') {
      throw new HintgateError(
        'invalid_option',
        'execute: session must be a string, null or absent.',
      );
    }
    if (executeOptions.approver !== undefined && typeof executeOptions.approver !== 'function') {
      throw new HintgateError(
        'invalid_option',
        'execute: approver must be a function (request, { signal }) => answer.',
      );
    }
    if (executeOptions.signal !== undefined && !(executeOptions.signal instanceof AbortSignal)) {
      throw new HintgateError('invalid_option', 'execute: signal must be an AbortSignal.');
    }
    const { caller } = executeOptions;
    if (caller !== undefined && (typeof caller !== 'object' || caller === null)) {
      throw new HintgateError(
        'invalid_option',
        'execute: caller must be an object such as { client: { name, version }, transport }.',
      );
    }
    const who: Partial<AuditEvent> = caller === undefined ? {} : { caller };
    const batchId = randomUUID();
    const pending: Promise<void>[] = [];
    const optionsOf = (
      type: AuditEventType,
      call: PreparedCall | ToolCall,
    ): AuditWriteOptions | undefined => {
      // The batch waits for its events only at its end, with each call's last event
      // (succeeded or failed): a durable sink syncs the earlier ones with those.
      const last = type === 'call.succeeded' || type === 'call.failed';
      // The class the policy and the scheduler used, from trusted annotations only; a call
      // that never resolved to a tool has none and counts as one that may change something.
      const readOnly = 'registered' in call && call.class === 'read';
      return writeOptionsOf(last, readOnly);
    };
    const emit = (event: AuditEvent, call: PreparedCall | ToolCall): void =>
      audit.emit(event, pending, optionsOf(event.type, call));
    const record = (
      type: AuditEventType,
      call: PreparedCall | ToolCall,
      extra: Partial<AuditEvent>,
    ): void => {
      if (audit.enabled) {
        emit(callEvent(type, batchId, call, { ...who, ...extra }, includeArguments), call);
      }
    };
    const startEvent = (
      call: PreparedCall,
      extra: Partial<AuditEvent>,
      late: boolean,
    ): (() => void) => {
      if (!audit.enabled) return noop;
      // Built now, from the arguments as called, even when it is written after the tool starts.
      const event = callEvent(
        'call.started',
        batchId,
        call,
        { ...who, ...extra },
        includeArguments,
      );
      if (late) return audit.hold(event, pending, optionsOf('call.started', call));
      emit(event, call);
      return noop;
    };

    const prepared = await prepareAll(calls, executeOptions.scopes ?? defaultScopes);
    const valid = prepared.filter((entry): entry is PreparedCall => 'registered' in entry);
    const authorizations =
      valid.length === 0
        ? []
        : await authorizeBatch(valid, {
            authorizer,
            signal,
            record,
            approver: executeOptions.approver,
            session: executeOptions.session,
          });

    // Admit in call order, in one synchronous pass, so that the batch keeps its order in
    // the lock manager even against batches that arrive concurrently.
    const capOf = concurrencyCaps();
    const decisions = new Map<number, Decision>();
    let position = 0;
    const results = prepared.map((entry, index) => {
      if (!('registered' in entry)) return entry;
      const authorization = authorizations[position] as Authorization;
      position += 1;
      if (audit.enabled) decisions.set(index, authorization.decision);
      return schedule(entry, authorization, { signal, capOf, startEvent });
    });

    const settled = await Promise.all(results);
    if (audit.enabled) {
      settled.forEach((result, index) => {
        const entry = prepared[index] as PreparedCall | CallResult;
        const call = 'registered' in entry ? entry : (calls[index] as ToolCall);
        const decision = decisions.get(index);
        record(result.status === 'ok' ? 'call.succeeded' : 'call.failed', call, {
          ...(decision === undefined
            ? {}
            : { decision: decision.decision, reason: decision.reason }),
          ...resultFields(result),
        });
      });
    }
    try {
      await audit.settle(pending);
    } catch (error) {
      throw new AuditWriteError(error, settled);
    }
    return settled;
  };

  return {
    registry,
    execute,
    async plan(calls, planOptions = {}) {
      validateBatch(calls);
      checkCallerOptions(planOptions, 'plan');
      return planBatch(await prepareAll(calls, planOptions.scopes ?? defaultScopes), locksOf);
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
        await audit.close();
      })();
      return closing;
    },
  };
}
