import { randomUUID } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import { argumentDigest, redactSecrets } from '../audit/argument-digest.js';
import { createAuditEmitter } from '../audit/audit-emitter.js';
import type { AuditEvent } from '../audit/audit-event.js';
import { HintgateError } from '../errors/hintgate-error.js';
import { type ApprovalAsk, allowAll, type Decision } from '../policy/authorizer.js';
import { createRegistry, type ToolRegistry } from '../registry/index.js';
import { callLocks } from '../schedule/call-locks.js';
import { systemClock } from '../schedule/clock.js';
import { planWaits } from '../schedule/plan-waits.js';
import { Scheduler } from '../schedule/scheduler.js';
import { toToolListing } from '../tool/to-tool-listing.js';
import type { ToolListing } from '../tool/tool.js';
import type { CallResult } from '../tool/tool-result.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../tool/truncate-output.js';
import { AuditWriteError } from './audit-write-error.js';
import { failedResult } from './call-result.js';
import { type PreparedCall, prepareCall } from './prepare-call.js';
import { DEFAULT_RETRY, resolveRetry } from './retry-delay.js';
import { runCall } from './run-call.js';
import type { ExecuteOptions, PlanEntry, Runtime } from './runtime.js';
import { checkRuntimeOptions, type RuntimeOptions } from './runtime-options.js';
import type { ToolCall } from './tool-call.js';
import { validateBatch } from './validate-batch.js';

/** Default timeout of a call, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RELEASE_GRACE_MS = 2_000;

const deniedMessage = (name: string, reason: string, message?: string): string =>
  message ??
  `The call to "${name}" was denied: ${reason}. Do not retry it unchanged; ask the user how to proceed or take another approach.`;

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
  if (options.registry !== undefined) {
    registry = options.registry;
  } else {
    registry = createRegistry();
    registry.addOrigin({
      name: 'local',
      layer: 'project',
      trusted: true,
      tools: options.tools ?? [],
    });
  }
  const scheduler = new Scheduler({ clock });
  const audit = createAuditEmitter(options.auditSinks ?? []);
  const authorizer = options.authorizer ?? allowAll;
  const workspace = resolvePath(options.workspace ?? process.cwd());
  const retry = resolveRetry(options.retry, DEFAULT_RETRY);
  const defaultScopes = options.scopes ?? [];
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const releaseGraceMs = options.releaseGraceMs ?? DEFAULT_RELEASE_GRACE_MS;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;

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

  const concurrencyOf = (): ((origin: string) => number) => {
    const caps = new Map<string, number>();
    for (const origin of registry.origins()) {
      caps.set(
        origin.name,
        options.concurrency?.[origin.name] ??
          origin.concurrency ??
          (origin.trusted ? Number.POSITIVE_INFINITY : 1),
      );
    }
    return (origin) => caps.get(origin) ?? 1;
  };

  const callEvent = (
    type: AuditEvent['type'],
    batchId: string,
    call: PreparedCall | ToolCall,
    extra: Partial<AuditEvent>,
  ): AuditEvent => {
    const prepared = 'registered' in call ? call : undefined;
    const args = prepared?.arguments ?? call.arguments;
    return {
      type,
      time: new Date().toISOString(),
      batchId,
      callId: call.id,
      tool: call.name,
      ...(prepared === undefined
        ? {}
        : { origin: prepared.origin, class: prepared.class, approvalKeys: prepared.approvalKeys }),
      argsDigest: argumentDigest(args ?? {}),
      ...(options.auditArguments === true ? { arguments: redactSecrets(args ?? {}) } : {}),
      ...extra,
    };
  };
  const endEvent = (result: CallResult): Partial<AuditEvent> => ({
    status: result.status,
    ...(result.error === undefined
      ? {}
      : { code: result.error.code, message: result.error.message }),
    attempts: result.attempts,
    queuedMs: result.queuedMs,
    runMs: result.runMs,
  });

  const prepareAll = (calls: readonly ToolCall[], scopes: readonly string[]) =>
    Promise.all(calls.map((call) => prepareCall(call, { registry, scopes, workspace })));

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

  const authorize = async (
    batch: readonly PreparedCall[],
    signal: AbortSignal | undefined,
    batchId: string,
    pending: Promise<void>[],
  ): Promise<
    Array<{ allowed: true; decision: Decision } | { allowed: false; result: CallResult }>
  > => {
    // A policy that fails must not let a call through: it counts as a denial.
    const decisions = await Promise.all(
      batch.map(async (call): Promise<Decision> => {
        try {
          return await authorizer.decide(call);
        } catch (error) {
          return {
            decision: 'deny',
            reason: `the policy failed (${(error as Error)?.message ?? String(error)})`,
          };
        }
      }),
    );
    const outcomes: Array<
      { allowed: true; decision: Decision } | { allowed: false; result: CallResult }
    > = [];
    const asks: ApprovalAsk[] = [];
    const askIndex: number[] = [];
    decisions.forEach((decision, index) => {
      const call = batch[index] as PreparedCall;
      if (decision.decision === 'deny') {
        const message = deniedMessage(call.name, decision.reason, decision.message);
        outcomes[index] = { allowed: false, result: failedResult(call, 'denied', message) };
      } else if (decision.decision === 'ask') {
        asks.push({ call, decision });
        askIndex.push(index);
      } else {
        outcomes[index] = { allowed: true, decision };
      }
    });
    if (asks.length === 0) return outcomes;
    if (audit.enabled) {
      for (const ask of asks) {
        audit.emit(
          callEvent('approval.requested', batchId, ask.call, {
            decision: 'ask',
            reason: ask.decision.reason,
          }),
          pending,
        );
      }
    }
    let answers: readonly { allow: boolean; reason: string; message?: string }[];
    if (authorizer.approve === undefined) {
      answers = asks.map(() => ({
        allow: false,
        reason:
          'approval is required but no approver is configured; configure an approver or a rule that allows this call',
      }));
    } else {
      try {
        answers = await authorizer.approve(asks, signal === undefined ? {} : { signal });
        if (answers.length !== asks.length)
          throw new Error(`returned ${answers.length} answers for ${asks.length} asks`);
      } catch (error) {
        const why = `the approver failed (${(error as Error)?.message ?? String(error)}), so the call was not run`;
        answers = asks.map(() => ({ allow: false, reason: why }));
      }
    }
    answers.forEach((answer, position) => {
      const index = askIndex[position] as number;
      const { call, decision } = asks[position] as ApprovalAsk;
      if (audit.enabled) {
        const type = answer.allow ? 'approval.granted' : 'approval.denied';
        audit.emit(
          callEvent(type, batchId, call, { decision: 'ask', reason: answer.reason }),
          pending,
        );
      }
      outcomes[index] = answer.allow
        ? {
            allowed: true,
            decision: {
              decision: 'allow',
              reason: `${decision.reason}; approved: ${answer.reason}`,
            },
          }
        : {
            allowed: false,
            result: failedResult(
              call,
              'denied',
              deniedMessage(call.name, answer.reason, answer.message),
            ),
          };
    });
    return outcomes;
  };

  const execute = async (
    calls: readonly ToolCall[],
    executeOptions: ExecuteOptions = {},
  ): Promise<CallResult[]> => {
    validateBatch(calls);
    const { signal } = executeOptions;
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw new HintgateError('invalid_option', 'execute: signal must be an AbortSignal.');
    }
    const batchId = randomUUID();
    const pending: Promise<void>[] = [];
    const results: Array<CallResult | Promise<CallResult>> = [];
    const prepared = await prepareAll(calls, executeOptions.scopes ?? defaultScopes);
    const valid: PreparedCall[] = [];
    const validIndex: number[] = [];
    prepared.forEach((entry, index) => {
      if ('registered' in entry) {
        valid.push(entry);
        validIndex.push(index);
      } else {
        results[index] = entry;
      }
    });

    const outcomes = valid.length === 0 ? [] : await authorize(valid, signal, batchId, pending);
    const capOf = concurrencyOf();
    valid.forEach((call, position) => {
      const index = validIndex[position] as number;
      const outcome = outcomes[position];
      if (outcome === undefined || !outcome.allowed) {
        results[index] = outcome?.result ?? failedResult(call, 'denied', 'no decision was made');
        return;
      }
      const admission = scheduler.admit({
        id: call.id,
        locks: locksOf(call),
        origin: call.origin,
        concurrency: capOf(call.origin),
        ...(call.tool.rateLimit === undefined
          ? {}
          : { rateLimit: { key: `${call.origin}\u0000${call.name}`, limit: call.tool.rateLimit } }),
        ...(signal === undefined ? {} : { signal }),
      });
      const { decision } = outcome;
      results[index] = admission.granted.then((grant) => {
        if (!grant.ok) {
          return failedResult(
            call,
            grant.reason,
            `Tool "${call.name}" did not run: ${grant.message}`,
            {
              queuedMs: grant.queuedMs,
            },
          );
        }
        if (audit.enabled) {
          audit.emit(
            callEvent('call.started', batchId, call, {
              decision: decision.decision,
              reason: decision.reason,
              queuedMs: grant.queuedMs,
            }),
            pending,
          );
        }
        return runCall(call, grant.lease, {
          clock,
          random,
          signal,
          timeoutMs: call.call.timeoutMs ?? call.tool.timeoutMs ?? defaultTimeoutMs,
          maxOutputChars,
          retry: resolveRetry(call.tool.retry, retry),
          releaseGraceMs,
          queuedMs: grant.queuedMs,
        });
      });
    });

    const settled = await Promise.all(results);
    if (audit.enabled) {
      settled.forEach((result, index) => {
        const call = prepared[index] as PreparedCall | CallResult;
        const source = 'registered' in call ? call : (calls[index] as ToolCall);
        const type = result.status === 'ok' ? 'call.succeeded' : 'call.failed';
        audit.emit(callEvent(type, batchId, source, endEvent(result)), pending);
      });
    }
    try {
      await audit.settle(pending);
    } catch (error) {
      throw new AuditWriteError(error, settled);
    }
    return settled;
  };

  const plan = async (
    calls: readonly ToolCall[],
    planOptions: { scopes?: readonly string[] } = {},
  ): Promise<PlanEntry[]> => {
    validateBatch(calls);
    const prepared = await prepareAll(calls, planOptions.scopes ?? defaultScopes);
    const schedulable = prepared.filter((entry): entry is PreparedCall => 'registered' in entry);
    const locks = schedulable.map(locksOf);
    const waits = planWaits(
      schedulable.map((call, index) => ({ id: call.id, locks: locks[index] ?? [] })),
    );
    const byId = new Map(schedulable.map((call, index) => [call.id, index]));
    return prepared.map((entry) => {
      if (!('registered' in entry)) {
        return {
          id: entry.id,
          name: entry.name,
          runnable: false,
          error: entry.error ?? { code: 'tool_error', message: 'cannot run' },
          locks: [],
          waitsFor: [],
        };
      }
      const index = byId.get(entry.id) as number;
      return {
        id: entry.id,
        name: entry.name,
        runnable: true,
        origin: entry.origin,
        class: entry.class,
        resourceKeys: entry.resourceKeys,
        locks: (locks[index] ?? []).map((lock) => ({ key: lock.label, mode: lock.mode })),
        waitsFor: waits[index] ?? [],
      };
    });
  };

  return {
    registry,
    execute,
    plan,
    listTools(listOptions = {}): ToolListing[] {
      return registry
        .list({ scopes: listOptions.scopes ?? defaultScopes })
        .map((entry) => toToolListing(entry.tool));
    },
    async close() {
      unsubscribe();
      await audit.close();
    },
  };
}
