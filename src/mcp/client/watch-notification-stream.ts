import type { McpSubscription, Tool as McpTool } from '@modelcontextprotocol/client';
import type { Clock } from '../../schedule/index.js';
import type { LiveClient } from './live-client.js';

/** What watching a connection's notification stream reports to its owner. */
export interface NotificationStreamHooks {
  readonly clock: Clock;
  /** Wait before checking the server after the stream dropped, in milliseconds. */
  readonly delayMs: number;
  /** Time the server has to answer that check, in milliseconds. */
  readonly timeoutMs: number;
  /** The server answered: its current tool list (changes may have been missed meanwhile). */
  onTools(tools: McpTool[]): void;
  /** The server does not answer: the connection is lost. */
  onLost(error: Error): void;
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The list changes to hear of: tools always, prompts and resources when the server has them. */
const listenFilter = (live: LiveClient) => {
  const capabilities = live.client.getServerCapabilities();
  return {
    toolsListChanged: true,
    ...(capabilities?.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
  };
};

/**
 * Watches the `subscriptions/listen` stream of a 2026-era connection, which carries its
 * `list_changed` notifications. When the stream drops without the server ending it, the
 * server is asked for its tool list: no answer means the server is gone (over HTTP this is
 * the only sign of it between calls); an answer means only the stream dropped, so it is
 * opened again, without disturbing calls in flight.
 */
export function watchNotificationStream(
  live: LiveClient,
  subscription: McpSubscription | undefined,
  hooks: NotificationStreamHooks,
): void {
  if (subscription === undefined) return;
  void subscription.closed.then((reason) => {
    if (reason !== 'remote' || !live.alive) return;
    hooks.clock.setTimeout(() => {
      if (!live.alive) return;
      const request = { timeout: hooks.timeoutMs };
      live.client
        .listTools(undefined, { ...request, cacheMode: 'refresh' })
        .then(async ({ tools }) => {
          const again = await live.client.listen(listenFilter(live), request);
          if (!live.alive) return;
          hooks.onTools(live.listings?.restore(tools) ?? tools);
          watchNotificationStream(live, again, hooks);
        })
        .catch((error: unknown) => {
          if (!live.alive) return;
          hooks.onLost(
            new Error(
              `the server dropped its notification stream and did not answer (${messageOf(error)})`,
              { cause: error },
            ),
          );
        });
    }, hooks.delayMs);
  });
}
