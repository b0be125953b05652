import type { CallToolResult } from '@modelcontextprotocol/client';
import { HintgateError } from '../../errors/index.js';
import { checkTarget } from '../../mcp/index.js';
import { isPlainObject } from '../../tool/index.js';
import { plural } from '../plural.js';
import {
  type Accumulation,
  accumulationSummary,
  confirmAccumulation,
} from './accumulated-state.js';
import {
  addViolation,
  concludeProbe,
  type ListChangeEvent,
  type ToolRecord,
} from './conclude-probe.js';
import { confirmStateChange } from './confirm-state-change.js';
import type { FileChange } from './fs-snapshot.js';
import { prepareLaunch, type SandboxIsolation } from './prepare-launch.js';
import {
  type CallRun,
  callTool,
  type MadeCall,
  type PlannedTool,
  planTools,
} from './probe-calls.js';
import { openProbeClient, type ProbeClient, type ProbeConnection } from './probe-client.js';
import { callEvidence, fileEvidence, fileSummary } from './probe-evidence.js';
import { type Observation, ProbeObserver } from './probe-observer.js';
import { PROBE_RULE_IDS } from './probe-rules.js';
import type { ProbeProgress, ProbeReport, ProbeServerOptions } from './probe-types.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import { observeResult, settleFingerprint } from './state-fingerprint.js';
import { formatToolListChange } from './tool-list-diff.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_FINGERPRINT_MAX_MS = 2000;

/** An observation, with the files changed by a call made to confirm a state change. */
type Confirmed = Observation & { readonly confirmingFileChanges?: readonly FileChange[] };

/** Checks the few options that are not checked where they are used. */
function checkOptions(options: ProbeServerOptions): void {
  if (!isPlainObject(options)) {
    throw new HintgateError('invalid_option', 'probeServer expects one options object.');
  }
  if (typeof options.server !== 'string' || options.server.trim() === '') {
    throw new HintgateError(
      'invalid_option',
      `probeServer: server ${JSON.stringify(options.server)} is invalid; give the server's name as a non-empty string.`,
    );
  }
  for (const key of ['connectTimeoutMs', 'callTimeoutMs', 'fingerprintMaxMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === 'number' && value > 0)) {
      throw new HintgateError(
        'invalid_option',
        `probeServer: ${key} must be a positive number of milliseconds.`,
      );
    }
  }
}

/**
 * Runs the side-effect probe on one MCP server: starts it in a fresh sandbox (stdio) or
 * reaches it (HTTP), calls every tool that claims `readOnlyHint: true` twice and checks that
 * no file in the sandbox, no state visible through the server's own stable zero-argument
 * read-only tools, and not its tool list changed; with `allowWrites`, calls tools that claim
 * `idempotentHint: true` twice and checks that the second call changes nothing, and other
 * writing tools once. Gives every tool a verdict and reports violations as findings.
 *
 * @throws HintgateError `invalid_option` for bad options, `mcp_connect_failed` when the
 *   server cannot be started or reached. Rejects with the signal's reason when aborted.
 */
export async function probeServer(options: ProbeServerOptions): Promise<ProbeReport> {
  checkOptions(options);
  const where = `MCP server "${options.server}"`;
  const target = checkTarget(options.target as unknown as Record<string, unknown>, where);
  const sandbox = await createSandbox({
    ...(options.sandboxParent === undefined ? {} : { parent: options.sandboxParent }),
    keep: options.keepSandbox ?? false,
  });
  try {
    let connection: ProbeConnection;
    let substitutedArguments: ProbeReport['sandbox']['substitutedArguments'] = [];
    let isolation: SandboxIsolation | undefined;
    const progress = (event: ProbeProgress): void => {
      try {
        options.onProgress?.(event);
      } catch {
        // Progress is for show: a failing listener must not stop the probe.
      }
    };
    if (target.kind === 'http') {
      connection = { kind: 'http', url: target.url, headers: target.headers };
    } else {
      const plan = await prepareLaunch({
        sandbox,
        command: target.command,
        args: target.args,
        env: target.env,
        cwd: target.cwd,
        passEnv: options.passEnv,
        isolation: options.isolation,
        hostCaches: options.hostCaches,
        installTimeoutMs: options.installTimeoutMs,
        where,
        signal: options.signal,
        onInstall: () => progress({ phase: 'installing' }),
      });
      substitutedArguments = [...plan.substituted];
      isolation = plan.isolation;
      connection = {
        kind: 'stdio',
        command: plan.command,
        args: plan.args,
        env: plan.env,
        cwd: plan.cwd,
      };
    }
    progress({ phase: 'starting' });
    const client = await openProbeClient({
      where,
      connection,
      rootDir: sandbox.work,
      era: options.era ?? 'auto',
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      callTimeoutMs: options.callTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: options.signal,
      onStderr: options.onStderr,
      timeoutAdvice: options.connectTimeoutAdvice,
    });
    progress({ phase: 'listed', tools: client.tools.length });
    try {
      const probed = await runProbe(client, sandbox, options, connection.kind === 'http', progress);
      const { dispose: _dispose, sampleDir: _dir, sampleFile: _file, ...info } = sandbox;
      return {
        ...probed,
        server: options.server,
        tools: client.tools,
        calls: client.callCount(),
        sandbox: {
          ...info,
          substitutedArguments,
          environment: connection.kind === 'stdio' ? Object.keys(connection.env).sort() : [],
          ...(isolation === undefined ? {} : { isolation }),
        },
      };
    } finally {
      await client.close();
    }
  } finally {
    await sandbox.dispose();
  }
}

async function runProbe(
  client: ProbeClient,
  sandbox: Sandbox,
  options: ProbeServerOptions,
  remote: boolean,
  progress: (event: ProbeProgress) => void,
): Promise<Pick<ProbeReport, 'verdicts' | 'findings' | 'fingerprintTools'>> {
  const { server, signal } = options;
  const observer = new ProbeObserver(client, remote ? undefined : sandbox.root);
  const plans = await planTools(client.tools, options.fixtures ?? {}, sandbox);
  const records = new Map<string, ToolRecord>(
    plans.map((plan) => [plan.name, { plan, violations: [], evidence: [] }]),
  );
  const listChanges: ListChangeEvent[] = [];
  const record = (plan: PlannedTool): ToolRecord => records.get(plan.name) as ToolRecord;

  const readOnlyWindow = (plan: PlannedTool, run: CallRun, seen: Confirmed): void => {
    const r = record(plan);
    const files = [...seen.fileChanges, ...(seen.confirmingFileChanges ?? [])];
    if (files.length > 0) {
      addViolation(r, {
        rule: PROBE_RULE_IDS.readOnlyWritesFiles,
        message: `"${plan.name}" claims readOnlyHint: true, but calling it changed files in the sandbox (${fileSummary(files)}).`,
        fix: `Stop "${plan.name}" from writing files (logs, caches, timestamps), or annotate it readOnlyHint: false.`,
        evidence: [
          ...callEvidence(run),
          ...fileEvidence(seen.fileChanges, seen.confirmingFileChanges),
        ],
      });
    }
    if (seen.stateChanges.length > 0) {
      addViolation(r, {
        rule: PROBE_RULE_IDS.readOnlyChangesState,
        message: `"${plan.name}" claims readOnlyHint: true, but calling it changed the server's state as its own read-only tools show it.`,
        fix: `Keep "${plan.name}" from changing state (counters, last-seen times), or annotate it readOnlyHint: false.`,
        evidence: [...callEvidence(run), ...seen.stateChanges],
      });
    }
  };
  const noteListChange = (plan: PlannedTool, seen: Observation, verdictCounts: boolean): void => {
    if (seen.listChange === undefined) return;
    listChanges.push({
      tool: plan.name,
      change: seen.listChange,
      context: `after calls to "${plan.name}"`,
    });
    if (verdictCounts) {
      addViolation(record(plan), {
        rule: PROBE_RULE_IDS.toolListChanged,
        message: `The tool list changed after calls to "${plan.name}", which claims not to change anything.`,
        fix: 'Keep the tool list fixed while the server runs, or pin the server and review each change.',
        evidence: formatToolListChange(seen.listChange),
      });
    }
  };
  const failed = (plan: PlannedTool, run: CallRun): boolean => {
    if (run.working.length > 0) return false;
    record(plan).inconclusive = `could not be called: ${run.error ?? 'no call succeeded'}`;
    record(plan).couldNotRun = true;
    record(plan).evidence.push(...callEvidence(run));
    return true;
  };

  // A state change must repeat when the tool is called again; a fingerprint tool that moved
  // without that is time-dependent and is dropped from the fingerprint.
  const confirm = async (
    plan: PlannedTool,
    run: CallRun,
    seen: Observation,
  ): Promise<Confirmed & { readonly unconfirmed: readonly string[] }> => {
    const args = run.working[0];
    if (seen.stateChangedTools.length === 0 || args === undefined) {
      return { ...seen, unconfirmed: [] };
    }
    const check = await confirmStateChange(
      client,
      observer,
      { tool: plan.name, args },
      seen.stateChangedTools,
    );
    if (check.unreliable.length > 0) {
      stable.splice(0, stable.length, ...stable.filter((n) => !check.unreliable.includes(n)));
      observer.fingerprintTools = stable;
      record(plan).evidence.push(
        `${check.unreliable.join(', ')} changed while "${plan.name}" ran, but either not again when it was called again or also with nothing called for as long; left out of the state fingerprint as time-dependent`,
      );
    }
    const kept = seen.stateChangedTools.filter((name) => !check.unreliable.includes(name));
    const lines = seen.stateChanges.filter((_, i) =>
      kept.includes(seen.stateChangedTools[i] ?? ''),
    );
    const listChange = seen.listChange ?? check.observation.listChange;
    return {
      fileChanges: seen.fileChanges,
      confirmingFileChanges: check.observation.fileChanges,
      stateChanges: kept.length === 0 ? [] : [...lines, ...check.confirmed],
      stateChangedTools: kept,
      ...(listChange === undefined ? {} : { listChange }),
      unconfirmed: seen.stateChangedTools.filter((name) => !kept.includes(name)),
    };
  };

  // Two answers to the same call that differ by a count that grows with each call (a
  // counter, a history length, a growing list) show state the calls accumulate.
  const accumulated = async (
    plan: PlannedTool,
    calls: readonly MadeCall[],
  ): Promise<Accumulation | undefined> => {
    const key = (call: MadeCall): string => JSON.stringify(call.args);
    for (let i = 1; i < calls.length; i += 1) {
      const [a, b] = [calls[i - 1], calls[i]];
      if (a === undefined || b === undefined || !a.outcome.ok || !b.outcome.ok) continue;
      if (key(a) !== key(b)) continue;
      const answers: [CallToolResult, CallToolResult] = [a.outcome.result, b.outcome.result];
      if (observeResult(answers[0]).key === observeResult(answers[1]).key) continue;
      const { value } = await observer.observe(() =>
        confirmAccumulation(client, { tool: plan.name, args: a.args }, answers),
      );
      return value.grown.length > 0 ? value : undefined;
    }
    return undefined;
  };

  // Phase 1: zero-argument read-only tools, twice each; those that answer the same both
  // times (and quickly) become the state fingerprint.
  const readOnly = plans.filter((plan) => plan.claim === 'read-only');
  const maxMs = options.fingerprintMaxMs ?? DEFAULT_FINGERPRINT_MAX_MS;
  const stable: string[] = [];
  let probed = 0;
  const next = (plan: PlannedTool): void => {
    probed += 1;
    progress({ phase: 'probing', tool: plan.name, index: probed, total: plans.length });
  };
  progress({ phase: 'fingerprint' });
  for (const plan of readOnly.filter((p) => p.zeroArgument)) {
    signal?.throwIfAborted();
    let slowest = 0;
    const { value: run, observation } = await observer.observe(async () => {
      const started = performance.now();
      const made = await callTool(client, plan, 2);
      slowest = (performance.now() - started) / Math.max(made.calls.length, 1);
      return made;
    });
    readOnlyWindow(plan, run, observation);
    noteListChange(plan, observation, true);
    const [first, second] = run.calls;
    const same =
      first?.outcome.ok === true &&
      second?.outcome.ok === true &&
      observeResult(first.outcome.result).key === observeResult(second.outcome.result).key;
    if (!same && run.working.length > 0) {
      record(plan).evidence.push(
        'its output differed between two calls, so it is not part of the state fingerprint',
      );
    } else if (same && slowest > maxMs) {
      record(plan).evidence.push(
        `its calls took over ${maxMs} ms, so it is not part of the state fingerprint`,
      );
    } else if (same && record(plan).violations.length === 0) {
      stable.push(plan.name);
    }
  }
  const settled = await settleFingerprint(client, stable);
  for (const culprit of settled.culprits) {
    const plan = plans.find((p) => p.name === culprit.tool);
    if (plan === undefined) continue;
    addViolation(record(plan), {
      rule: PROBE_RULE_IDS.readOnlyChangesState,
      message: `"${plan.name}" claims readOnlyHint: true, but calling it changed the server's state as its own read-only tools show it.`,
      fix: `Keep "${plan.name}" from changing state (counters, last-seen times), or annotate it readOnlyHint: false.`,
      evidence: culprit.evidence,
    });
  }
  stable.splice(0, stable.length, ...settled.tools);
  observer.fingerprintTools = stable;

  // Phase 2: every read-only tool, twice, watched through files, fingerprint and tool list.
  for (const plan of readOnly) {
    signal?.throwIfAborted();
    next(plan);
    if (plan.args.source === 'none') {
      record(plan).inconclusive = plan.args.reason;
      record(plan).couldNotRun = true;
      continue;
    }
    const window = await observer.observe(() => callTool(client, plan, 2));
    const run = window.value;
    const observation = await confirm(plan, run, window.observation);
    readOnlyWindow(plan, run, observation);
    noteListChange(plan, observation, true);
    if (failed(plan, run)) continue;
    const r = record(plan);
    const grown = await accumulated(plan, run.calls);
    if (grown !== undefined) {
      addViolation(r, {
        rule: PROBE_RULE_IDS.readOnlyChangesState,
        message: `"${plan.name}" claims readOnlyHint: true, but its answer to the same call changed in a way that shows accumulated state (${accumulationSummary(grown.grown)}).`,
        fix: `Keep "${plan.name}" from keeping state across calls (counters, histories, growing lists), or annotate it readOnlyHint: false.`,
        evidence: grown.evidence,
      });
      continue;
    }
    r.evidence.push(...callEvidence(run));
    if (observation.unconfirmed.length > 0 && observation.stateChanges.length === 0) {
      r.inconclusive = `the output of ${observation.unconfirmed.join(', ')} changed while it ran, but either not again when it was called again or also with nothing called for as long (time-dependent output, or a change made once)`;
      continue;
    }
    const watched = [
      ...(remote ? [] : ['files in the sandbox']),
      ...(stable.length > 0 ? [`state through ${stable.join(', ')}`] : []),
    ];
    if (watched.length === 0) {
      r.inconclusive =
        'nothing to watch: the server is remote (its files are out of sight) and has no stable zero-argument read-only tool to show its state';
    } else {
      r.verified = `called twice; nothing changed (watched: ${watched.join('; ')}; the tool list)`;
      if (stable.length === 0)
        r.evidence.push('in-memory state not watched: no stable zero-argument read-only tool');
      if (remote) r.evidence.push("the server's files are out of sight (HTTP)");
    }
  }

  // Phase 3 (allowWrites): idempotent tools twice, then other writing tools once.
  const writers = plans.filter((plan) => plan.claim !== 'read-only');
  const order = (plan: PlannedTool): number =>
    plan.claim === 'idempotent' ? 0 : plan.claimsAdditive ? 1 : 2;
  for (const plan of [...writers].sort((a, b) => order(a) - order(b))) {
    signal?.throwIfAborted();
    next(plan);
    const r = record(plan);
    if (options.allowWrites !== true) {
      r.inconclusive =
        'not called: it claims to write (readOnlyHint is not true); pass --allow-writes to call it in the sandbox';
      continue;
    }
    if (plan.args.source === 'none') {
      r.inconclusive = plan.args.reason;
      r.couldNotRun = true;
      continue;
    }
    const first = await observer.observe(() => callTool(client, plan, 1));
    noteListChange(plan, first.observation, false);
    if (failed(plan, first.value)) continue;
    r.evidence.push(
      ...callEvidence(first.value),
      `first call: files ${fileSummary(first.observation.fileChanges)}`,
      ...fileEvidence(first.observation.fileChanges).map((line) => `first call: ${line}`),
    );
    let deleted = first.observation.fileChanges.filter((c) => c.kind === 'deleted');
    if (plan.claim === 'idempotent') {
      const again = await observer.observe(() => callTool(client, plan, 1, first.value.working));
      noteListChange(plan, again.observation, true);
      const confirmed = await confirm(plan, again.value, again.observation);
      // Rewriting a file with the same content is what an idempotent write does.
      const changed = (changes: readonly FileChange[] = []) =>
        changes.filter((c) => c.metadataOnly !== true);
      const seen = {
        ...confirmed,
        fileChanges: changed(confirmed.fileChanges),
        confirmingFileChanges: changed(confirmed.confirmingFileChanges),
      };
      const files = [...seen.fileChanges, ...seen.confirmingFileChanges];
      deleted = [...deleted, ...files.filter((c) => c.kind === 'deleted')];
      const [firstCall] = first.value.calls.filter((call) => call.outcome.ok);
      const [secondCall] = again.value.calls.filter((call) => call.outcome.ok);
      const grown =
        firstCall === undefined || secondCall === undefined
          ? undefined
          : await accumulated(plan, [firstCall, secondCall]);
      if (again.value.working.length === 0) {
        r.inconclusive = `the second call failed: ${again.value.error ?? 'unknown error'}`;
        r.couldNotRun = true;
      } else if (grown !== undefined) {
        addViolation(r, {
          rule: PROBE_RULE_IDS.notIdempotent,
          message: `"${plan.name}" claims idempotentHint: true, but its answer to the same call changed in a way that shows each call adds to its state (${accumulationSummary(grown.grown)}).`,
          fix: `Make "${plan.name}" set rather than add (a second identical call must change nothing), or annotate it idempotentHint: false.`,
          evidence: grown.evidence,
        });
      } else if (
        seen.unconfirmed.length > 0 &&
        seen.stateChanges.length === 0 &&
        files.length === 0
      ) {
        r.inconclusive = `the output of ${seen.unconfirmed.join(', ')} changed after the second call, but not again after a third (time-dependent output)`;
      } else if (files.length > 0 || seen.stateChanges.length > 0) {
        addViolation(r, {
          rule: PROBE_RULE_IDS.notIdempotent,
          message: `"${plan.name}" claims idempotentHint: true, but a second call with the same arguments changed ${files.length > 0 ? `files (${fileSummary(files)})` : 'state'} again.`,
          fix: `Make "${plan.name}" set rather than add (a second identical call must change nothing), or annotate it idempotentHint: false.`,
          evidence: [
            ...callEvidence(again.value).map((line) =>
              line.replace(/^called once/, 'called again'),
            ),
            ...fileEvidence(seen.fileChanges, seen.confirmingFileChanges),
            ...seen.stateChanges,
          ],
        });
      } else {
        r.verified =
          'a second call with the same arguments changed no file, no state and not the tool list';
      }
    } else {
      r.inconclusive = `it claims to write and not to be idempotent, so beyond running it there is nothing to verify; it ran once (files ${fileSummary(first.observation.fileChanges)})`;
    }
    if (plan.claimsAdditive && deleted.length > 0) {
      addViolation(r, {
        rule: PROBE_RULE_IDS.nonDestructiveDeletes,
        message: `"${plan.name}" claims destructiveHint: false, but calling it deleted ${plural(deleted.length, 'file')}.`,
        fix: `Annotate "${plan.name}" destructiveHint: true, or keep it from deleting.`,
        evidence: fileEvidence(deleted),
      });
    }
  }
  await observer.finish();
  for (const { change, during } of observer.unattributedListChanges) {
    listChanges.push({
      change,
      context: `between probed calls, while calling ${during.length === 0 ? 'no tool' : during.join(', ')}`,
    });
  }
  const concluded = concludeProbe({
    server,
    plans,
    records,
    listChanges,
    listChangedCount: client.listChangedCount(),
  });
  return { ...concluded, fingerprintTools: stable };
}
