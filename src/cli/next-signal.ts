/** How long calls under way may finish after SIGINT or SIGTERM before they are cancelled. */
export const SHUTDOWN_GRACE_MS = 5000;

/** What a server says when a signal starts its shutdown. */
export const shutdownNotice = (signal: string): string =>
  `${signal}: finishing the calls under way (up to ${SHUTDOWN_GRACE_MS / 1000} s, then they are cancelled; send it again to stop at once)`;

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
