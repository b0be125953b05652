import { resolve as resolvePath } from 'node:path';
import { createAuditEmitter } from '../audit/index.js';
import { HintgateError } from '../errors/index.js';
import type { Authorizer } from '../policy/index.js';
import { createPolicy, isOffered, type PolicyAuthorizer } from '../policy/index.js';
import { buildSystemPrompt } from '../prompt/index.js';
import { createRegistry, type ToolRegistry } from '../registry/index.js';
import { memoCallLocks, Scheduler, systemClock } from '../schedule/index.js';
import type { Tool, ToolArguments, ToolListing } from '../tool/index.js';
import { DEFAULT_MAX_OUTPUT_CHARS, ownValue, toToolListing } from '../tool/index.js';
import { ArrivalOrder } from './arrival-order.js';
import { checkCallerOptions } from './check-caller-options.js';
import { checkExecuteOptions } from './check-execute-options.js';
import { graceMsOf } from './close-options.js';
import { createTurn } from './create-turn.js';
import { type BatchRuntime, executeBatch } from './execute-batch.js';
import { planBatch } from './plan-batch.js';
import { type PreparedCall, prepareCall } from './prepare-call.js';
import { type PreviewRuntime, previewDecision } from './preview-decision.js';
import { DEFAULT_RETRY, resolveRetry } from './retry-delay.js';
import { RunningWork } from './running-work.js';
import type { Runtime } from './runtime.js';
import { checkRuntimeOptions, type RuntimeOptions, type TrustOptions } from './runtime-options.js';
import type { ToolCall } from './tool-call.js';
import type { OriginLimits, TurnContext } from './turn-context.js';
import { batchIds, validateBatchArray, validateBatchCall } from './validate-batch.js';

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
          ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
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
    if (!audit.enabled) return;
    // One change of the registry (a server's 10,000 tools added at once) is one moment.
    const time = new Date().toISOString();
    for (const change of changes) {
      audit.emit({
        type: 'tool.changed',
        time,
        tool: change.name,
        origin: change.origin,
        change: change.type,
      });
    }
  });

  /**
   * Limits per origin: its concurrency cap (the runtime's, else the origin's, else by trust;
   * 1 for an origin the registry does not know) and its rate limit. Each origin is looked
   * up once per turn, when asked; a turn of one origin keeps no map.
   */
  const originLimits = (): ((origin: string) => OriginLimits) => {
    const find = (name: string): OriginLimits => {
      const origin = registry.origin(name);
      if (origin === undefined) return { concurrency: 1, rateLimit: undefined };
      const trustedDefault = origin.trusted ? Number.POSITIVE_INFINITY : 1;
      return {
        concurrency: ownValue(options.concurrency, name) ?? origin.concurrency ?? trustedDefault,
        rateLimit: origin.rateLimit,
      };
    };
    let firstName: string | undefined;
    let first: OriginLimits | undefined;
    let others: Map<string, OriginLimits> | undefined;
    return (name) => {
      if (first === undefined) {
        firstName = name;
        first = find(name);
        return first;
      }
      if (name === firstName) return first;
      others ??= new Map();
      let limits = others.get(name);
      if (limits === undefined) {
        limits = find(name);
        others.set(name, limits);
      }
      return limits;
    };
  };

  /** Registered tools the caller may call, in the current mode. */
  /**
   * Each tool's listing, made once and frozen: a tool is frozen too (a changed tool is a
   * new one), so a gateway of thousands of tools lists them again without a copy each.
   */
  const listings = new WeakMap<object, ToolListing>();
  const listingOf = (tool: Tool<ToolArguments>): ToolListing => {
    let listing = listings.get(tool);
    if (listing === undefined) {
      listing = Object.freeze(toToolListing(tool));
      listings.set(tool, listing);
    }
    return listing;
  };

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

  const lockMemo = memoCallLocks(
    options.serializeOpenWorldWrites === undefined
      ? {}
      : { serializeOpenWorldWrites: options.serializeOpenWorldWrites },
  );
  const locksOf = (prepared: PreparedCall) =>
    lockMemo({
      origin: prepared.origin,
      class: prepared.class,
      openWorld: prepared.effective.openWorldHint,
      resourceKeys: prepared.resourceKeys,
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
    originLimits,
    visibleNames: (scopes) => visible(scopes).map((entry) => entry.name),
  };

  const running = new RunningWork();
  let closing: Promise<void> | undefined;
  const closedError = (method: string): HintgateError =>
    new HintgateError(
      'runtime_closed',
      `${method}: this runtime is shutting down or closed, so it takes no more calls; run them once it (or a new one) is up again.`,
    );
  const batchRuntime: BatchRuntime = {
    context,
    defaultScopes,
    running,
    holdTurn: () => registry.holdTurn(),
  };
  const previewRuntime: PreviewRuntime = { authorizer, defaultScopes, prepare: prepareOne };

  return {
    registry,
    execute(calls, executeOptions = {}) {
      if (closing !== undefined) return Promise.reject(closedError('execute'));
      return executeBatch(batchRuntime, calls, executeOptions);
    },
    turn(turnOptions = {}) {
      if (closing !== undefined) throw closedError('turn');
      checkExecuteOptions(turnOptions, 'turn');
      return createTurn(context, turnOptions, {
        defaultScopes,
        closing: () => closing !== undefined,
        track: (work, scope) => running.track(work, scope),
        hold: () => registry.holdTurn(),
      });
    },
    decide(call, decideOptions = {}) {
      return previewDecision(previewRuntime, call, decideOptions);
    },
    async plan(calls, planOptions = {}) {
      validateBatchArray(calls);
      checkCallerOptions(planOptions, 'plan');
      const scopes = planOptions.scopes ?? defaultScopes;
      const context = {
        registry,
        scopes,
        workspace,
        visibleNames: () => visible(scopes).map((entry) => entry.name),
      };
      // Each call is checked as it is planned: one pass over a big batch, not two.
      const seen = batchIds(calls);
      const prepare = (index: number) => {
        validateBatchCall(calls, index, seen);
        return prepareCall(calls[index] as ToolCall, context);
      };
      // Every call is prepared before `planBatch` returns, whatever it returns.
      try {
        return planBatch(calls.length, prepare, locksOf);
      } finally {
        seen?.release();
      }
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
      return visible(listOptions.scopes).map((entry) => listingOf(entry.tool));
    },
    systemPrompt(promptOptions = {}) {
      checkCallerOptions(promptOptions, 'systemPrompt');
      return buildSystemPrompt({
        // What a prompt says of a tool: no listing with its schemas made for each.
        tools: visible(promptOptions.scopes).map(({ tool, effective }) => ({
          name: tool.name,
          ...(tool.title === undefined ? {} : { title: tool.title }),
          description: tool.description,
          annotations: tool.annotations,
          effective,
        })),
        ...(policy === undefined ? {} : { mode: policy.mode }),
        ...(promptOptions.intro === undefined ? {} : { intro: promptOptions.intro }),
        ...(promptOptions.maxToolChars === undefined
          ? {}
          : { maxToolChars: promptOptions.maxToolChars }),
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
        await running.drain(graceMs);
        // Tool modules' dispose, once no call of theirs is under way.
        await registry.close();
        await audit.close();
      })();
      return closing;
    },
  };
}
