import type { CheckRule } from '../check-types.js';

/** Ids of the rules of the side-effect probe. */
export const PROBE_RULE_IDS = {
  readOnlyWritesFiles: 'probe-read-only-writes-files',
  readOnlyChangesState: 'probe-read-only-changes-state',
  toolListChanged: 'probe-tool-list-changed',
  notIdempotent: 'probe-not-idempotent',
  nonDestructiveDeletes: 'probe-non-destructive-deletes',
  callFailed: 'probe-call-failed',
} as const;

/** One of {@link PROBE_RULE_IDS}. */
export type ProbeRuleId = (typeof PROBE_RULE_IDS)[keyof typeof PROBE_RULE_IDS];

/** The rules of `hintgate check --probe`, as documented in `docs/check.md`. */
export const PROBE_RULES: readonly CheckRule[] = [
  {
    id: PROBE_RULE_IDS.readOnlyWritesFiles,
    kind: 'probe',
    severity: 'high',
    summary: 'A tool that claims readOnlyHint: true created, modified or deleted files.',
    help: 'The probe called the tool twice in a sandbox and files there changed. A harness runs read-only tools in parallel, so these writes race. Stop writing (logs, caches, timestamps) from the tool, or annotate it readOnlyHint: false.',
  },
  {
    id: PROBE_RULE_IDS.readOnlyChangesState,
    kind: 'probe',
    severity: 'high',
    summary: "A tool that claims readOnlyHint: true changed the server's observable state.",
    help: "The output of the server's own zero-argument read-only tools differed before and after the tool was called (a counter, a last-seen time), or the tool's own answers to the same call counted its calls (a history length, a list that grows by one per call). Keep the tool from changing state, or annotate it readOnlyHint: false.",
  },
  {
    id: PROBE_RULE_IDS.toolListChanged,
    kind: 'probe',
    severity: 'high',
    summary: 'The tool list changed while the server was probed (a rug pull).',
    help: 'Tools were added, removed or redefined after calls, so what a client approved is not what it will run. Keep the tool list fixed for a session, or pin the server and review every change.',
  },
  {
    id: PROBE_RULE_IDS.notIdempotent,
    kind: 'probe',
    severity: 'high',
    summary:
      'A tool that claims idempotentHint: true changed state again when called a second time with the same arguments.',
    help: 'A harness retries idempotent tools after a failure; a second call that writes again duplicates the effect. Make the call idempotent (set, not append), or annotate it idempotentHint: false.',
  },
  {
    id: PROBE_RULE_IDS.nonDestructiveDeletes,
    kind: 'probe',
    severity: 'high',
    summary: 'A tool that claims destructiveHint: false deleted files.',
    help: 'destructiveHint: false promises additive updates only, so a harness may run it without asking. Annotate the tool destructiveHint: true, or stop it deleting.',
  },
  {
    id: PROBE_RULE_IDS.callFailed,
    kind: 'probe',
    severity: 'low',
    summary: 'The probe could not run a tool, so its annotations were not verified.',
    help: 'The call failed or no valid arguments could be made from the input schema. Give arguments that work in a --fixtures file so that the probe can call the tool.',
  },
];
