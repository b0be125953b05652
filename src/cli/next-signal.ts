/**
 * How long calls under way may finish after SIGINT or SIGTERM before they are cancelled,
 * unless `--shutdown-grace-ms` says otherwise.
 */
export const SHUTDOWN_GRACE_MS = 5000;

/** The longest `--shutdown-grace-ms`: an hour. */
const MAX_SHUTDOWN_GRACE_MS = 3_600_000;

/** Usage text of `--shutdown-grace-ms`, shared by `serve` and `gateway`. */
export const SHUTDOWN_GRACE_USAGE = `  --shutdown-grace-ms MS
                    How long calls under way may finish after SIGINT or SIGTERM before
                    they are cancelled (0-${MAX_SHUTDOWN_GRACE_MS}). Default ${SHUTDOWN_GRACE_MS}. Keep it
                    under the grace your process manager gives (Kubernetes:
                    terminationGracePeriodSeconds, 30 s by default).
`;

/** `--shutdown-grace-ms`: its milliseconds, the default when absent, or what is wrong. */
export function shutdownGraceArg(
  given: string | undefined,
): { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly message: string } {
  if (given === undefined) return { ok: true, ms: SHUTDOWN_GRACE_MS };
  const ms = /^\d{1,7}$/.test(given) ? Number(given) : Number.NaN;
  return ms <= MAX_SHUTDOWN_GRACE_MS
    ? { ok: true, ms }
    : {
        ok: false,
        message: `--shutdown-grace-ms "${given}" is not a number of milliseconds from 0 to ${MAX_SHUTDOWN_GRACE_MS}.`,
      };
}

/** What a server says when a signal starts its shutdown, with `graceMs` for the calls. */
export const shutdownNotice = (signal: string, graceMs = SHUTDOWN_GRACE_MS): string =>
  `${signal}: finishing the calls under way (up to ${graceMs / 1000} s, then they are cancelled; send it again to stop at once)`;

/** Resolves on the first SIGINT or SIGTERM; a second one while shutting down exits at once. */
export function nextSignal(): { readonly signal: Promise<string>; readonly dispose: () => void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const signal = new Promise<string>((resolvePromise) => {
    onSignal = (name) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const force = (): void => process.exit(130);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      resolvePromise(name);
    };
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
