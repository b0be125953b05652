import type { ProbeClient } from './probe-client.js';
import type { Observation, ProbeObserver } from './probe-observer.js';
import { changedTools, diffFingerprints, takeFingerprint } from './state-fingerprint.js';

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
 * and not by time: reads the suspects twice with no call in between (a suspect that moves
 * then is time-dependent), calls `tool` once more with `args`, and reads them again. Only
 * suspects that move again are confirmed. Runs as one observation, so that files the extra
 * call writes are seen too.
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
    const first = await takeFingerprint(client, suspects);
    const before = await takeFingerprint(client, suspects);
    const noisy = changedTools(first, before);
    const steady = suspects.filter((name) => !noisy.includes(name));
    if (steady.length === 0) {
      unreliable = noisy;
      return;
    }
    await client.callTool(call.tool, call.args);
    const after = await takeFingerprint(client, steady);
    const moved = changedTools(before, after);
    confirmed = diffFingerprints(before, after).map((line) => `called once more: ${line}`);
    unreliable = [...noisy, ...steady.filter((name) => !moved.includes(name))];
  });
  return { confirmed, unreliable, observation };
}
