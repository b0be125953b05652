import { setTimeout as delay } from 'node:timers/promises';
import type { ProbeClient } from './probe-client.js';
import type { Observation, ProbeObserver } from './probe-observer.js';
import {
  changedTools,
  diffFingerprints,
  type StateFingerprint,
  takeFingerprint,
} from './state-fingerprint.js';

/** Longest control wait; a call that took longer is compared over this much time. */
const MAX_CONTROL_MS = 30_000;

/** Outcome of {@link confirmStateChange}. */
export interface StateChangeConfirmation {
  /** Evidence lines of the fingerprint tools that moved again when the tool was called again. */
  readonly confirmed: readonly string[];
  /** Fingerprint tools that moved with no call at all, or did not move again: time-dependent. */
  readonly unreliable: readonly string[];
  /** What changed in files and tool list during the confirmation. */
  readonly observation: Observation;
}

/**
 * Checks that a state change seen through fingerprint tools `suspects` is caused by `tool`
 * and not by time: reads the suspects, calls `tool` once more with `args`, reads them
 * again, and then, as a control, reads them twice with nothing called in between but as
 * long apart as that call took. A suspect moved by the call is confirmed only when it
 * stayed put during the control; one that moved on its own is time-dependent (a clock, an
 * uptime), and so is one that did not move again. Runs as one observation, so that files
 * the extra call writes are seen too.
 */
export async function confirmStateChange(
  client: ProbeClient,
  observer: ProbeObserver,
  call: { readonly tool: string; readonly args: Record<string, unknown> },
  suspects: readonly string[],
): Promise<StateChangeConfirmation> {
  let confirmed: string[] = [];
  let unreliable: string[] = [];
  const { observation } = await observer.observe(async () => {
    const before = await takeFingerprint(client, suspects);
    const started = performance.now();
    await client.callTool(call.tool, call.args);
    const callMs = performance.now() - started;
    const after = await takeFingerprint(client, suspects);
    const moved = changedTools(before, after);

    const controlStart = await takeFingerprint(client, moved);
    await delay(Math.min(callMs, MAX_CONTROL_MS));
    const controlEnd = await takeFingerprint(client, moved);
    const noisy = changedTools(controlStart, controlEnd);

    const caused = moved.filter((name) => !noisy.includes(name));
    const only = (fingerprint: StateFingerprint): StateFingerprint =>
      new Map([...fingerprint].filter(([name]) => caused.includes(name)));
    confirmed = diffFingerprints(only(before), only(after)).map(
      (line) => `called once more: ${line}`,
    );
    unreliable = suspects.filter((name) => !caused.includes(name));
  });
  return { confirmed, unreliable, observation };
}
