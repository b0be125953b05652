import type { LoggingLevel, LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import type { McpLogSource } from '../mcp/index.js';
import type { GatewayUpstreams, Upstream } from './gateway-upstreams.js';

/** Options of {@link relayLogging}. */
export interface RelayLoggingOptions {
  readonly upstreams: GatewayUpstreams;
  /** A server that refused the level. */
  readonly report: (error: unknown) => void;
}

/** The log messages of a gateway's upstreams. */
export interface RelayedLogging extends McpLogSource {
  /** Stops following the upstreams. */
  close(): void;
}

/** The upstream's logger name with the server's name in front: `everything`, `files/fs`. */
const tagged = (
  server: string,
  params: LoggingMessageNotificationParams,
): LoggingMessageNotificationParams => ({
  ...params,
  logger: params.logger === undefined ? server : `${server}/${params.logger}`,
});

/** Whether `logging/setLevel` means something to the server (2025-era, with logging). */
const takesLevel = ({ connection }: Upstream): boolean =>
  connection.capabilities?.logging !== undefined && connection.protocolEra !== 'modern';

/**
 * The log messages (`notifications/message`) of every upstream server, each with the
 * server's name as `logger` (before the server's own logger name, if any). A level set
 * by a client is passed to every server that offers logging, and again to a server that
 * is reconnected or reached later.
 */
export function relayLogging(options: RelayLoggingOptions): RelayedLogging {
  const { upstreams, report } = options;
  const listeners = new Set<(params: LoggingMessageNotificationParams) => void>();
  let level: LoggingLevel | undefined;

  const send = async (upstream: Upstream, wanted: LoggingLevel): Promise<void> => {
    try {
      await upstream.connection.request('logging/setLevel', (client) =>
        client.setLoggingLevel(wanted),
      );
    } catch (error) {
      report(
        new Error(
          `server "${upstream.name}" did not take logging level ${wanted}: ${(error as Error).message}`,
          { cause: error },
        ),
      );
    }
  };

  const stopNotifications = upstreams.onNotification((server, notification) => {
    if (notification.method !== 'notifications/message') return;
    const params = tagged(server, notification.params);
    for (const listener of [...listeners]) {
      try {
        listener(params);
      } catch (error) {
        report(error);
      }
    }
  });
  const stopReady = upstreams.onReady((server) => {
    const upstream = upstreams.list().find((entry) => entry.name === server);
    if (level !== undefined && upstream !== undefined && takesLevel(upstream)) {
      void send(upstream, level);
    }
  });

  return {
    async setLevel(wanted) {
      level = wanted;
      await Promise.all(
        upstreams
          .list()
          .filter(takesLevel)
          .map((upstream) => send(upstream, wanted)),
      );
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      stopNotifications();
      stopReady();
      listeners.clear();
    },
  };
}
