import {
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { isModernRevision } from '../protocol-revision.js';
import {
  LOGGING_LEVELS,
  type McpLogSource,
  type McpPromptSource,
  type McpResourceEvent,
  type McpResourceSource,
  type McpServerEvent,
} from './mcp-server-sources.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';

/** The answer when nothing can complete the value: no suggestions. */
const NO_COMPLETIONS = { completion: { values: [], hasMore: false } };

/** Options of {@link createSourceRelay}. */
export interface SourceRelayOptions {
  readonly resources?: McpResourceSource;
  readonly prompts?: McpPromptSource;
  readonly logging?: McpLogSource;
  /** The instances that live for a connection (stdio, 2025-11-25 HTTP sessions). */
  readonly instances: () => Iterable<Server>;
  /** Announces a change to whoever serves clients without such an instance. */
  readonly emit: (event: McpServerEvent) => void;
  readonly report: (error: unknown) => void;
}

/** Serves resources, prompts and logging from their sources on each instance of a tool server. */
export interface SourceRelay {
  /** The capabilities the sources add to an instance's. */
  readonly capabilities: ServerCapabilities;
  /** Answers the sources' methods on `server`. */
  register(server: Server): void;
  /** `server` disconnected: its subscriptions and log level go. */
  forget(server: Server): void;
  /** Stops listening to the sources. */
  close(): void;
}

const severity = (level: LoggingLevel): number => LOGGING_LEVELS.indexOf(level);

const isModern = (server: Server): boolean =>
  isModernRevision(server.getNegotiatedProtocolVersion());

/** Lists are served whole: a cursor can only be one this server never gave. */
const onePage = (params: { readonly cursor?: string | undefined } | undefined): void => {
  if (params?.cursor === undefined) return;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown cursor ${JSON.stringify(params.cursor)}: this server lists everything in one page and gives no cursors.`,
  );
};

/**
 * Relays resources, prompts and log messages from their sources to a tool server's
 * clients: requests are answered by the sources; list changes go to every connected
 * client, resource updates to the clients subscribed to the resource, and log messages
 * to every connected 2025-11-25 client at or above the level it set (all of them when it
 * set none). A 2026-07-28 client has no session to send them on; it hears of list changes
 * and updates through its `subscriptions/listen` stream.
 */
export function createSourceRelay(options: SourceRelayOptions): SourceRelay {
  const { resources, prompts, logging, report, emit } = options;
  const subscriptions =
    resources === undefined ? undefined : new ResourceSubscriptions<Server>(resources, report);
  const levels = new Map<Server, LoggingLevel>();
  let sentLevel: LoggingLevel | undefined;
  const stops: (() => void)[] = [];

  const each = (send: (server: Server) => Promise<void>): void => {
    for (const server of options.instances()) send(server).catch(report);
  };

  if (resources !== undefined) {
    stops.push(
      resources.onEvent((event: McpResourceEvent) => {
        if (event.kind === 'list_changed') {
          each((server) => server.sendResourceListChanged());
          emit({ kind: 'resources_list_changed' });
          return;
        }
        for (const server of subscriptions?.subscribers(event.params.uri) ?? []) {
          server.sendResourceUpdated(event.params).catch(report);
        }
        emit({ kind: 'resource_updated', uri: event.params.uri });
      }),
    );
  }
  if (prompts !== undefined) {
    stops.push(
      prompts.onListChanged(() => {
        each((server) => server.sendPromptListChanged());
        emit({ kind: 'prompts_list_changed' });
      }),
    );
  }
  if (logging !== undefined) {
    stops.push(
      logging.onMessage((params: LoggingMessageNotificationParams) => {
        each(async (server) => {
          if (isModern(server)) return;
          const level = levels.get(server);
          if (level !== undefined && severity(params.level) < severity(level)) return;
          await server.notification({ method: 'notifications/message', params });
        });
      }),
    );
  }

  /** Asks the source for the least severe level any client wants, when that changed. */
  const updateLevel = async (): Promise<void> => {
    let wanted: LoggingLevel | undefined;
    for (const level of levels.values()) {
      if (wanted === undefined || severity(level) < severity(wanted)) wanted = level;
    }
    if (wanted === undefined || wanted === sentLevel || logging === undefined) return;
    sentLevel = wanted;
    await logging.setLevel(wanted);
  };

  return {
    capabilities: {
      ...(resources === undefined ? {} : { resources: { subscribe: true, listChanged: true } }),
      ...(prompts === undefined ? {} : { prompts: { listChanged: true } }),
      ...(logging === undefined ? {} : { logging: {} }),
      ...(resources?.complete === undefined && prompts?.complete === undefined
        ? {}
        : { completions: {} }),
    },
    register(server) {
      if (resources?.complete !== undefined || prompts?.complete !== undefined) {
        server.setRequestHandler('completion/complete', (request, ctx) => {
          const { params } = request;
          const source = params.ref.type === 'ref/prompt' ? prompts : resources;
          return (
            source?.complete?.(params, { signal: ctx.mcpReq.signal }) ??
            Promise.resolve(NO_COMPLETIONS)
          );
        });
      }
      if (resources !== undefined && subscriptions !== undefined) {
        server.setRequestHandler('resources/list', (request, ctx) => {
          onePage(request.params);
          return resources.list({ signal: ctx.mcpReq.signal });
        });
        server.setRequestHandler('resources/templates/list', (request, ctx) => {
          onePage(request.params);
          return resources.listTemplates({ signal: ctx.mcpReq.signal });
        });
        server.setRequestHandler('resources/read', (request, ctx) =>
          resources.read(request.params, { signal: ctx.mcpReq.signal }),
        );
        server.setRequestHandler('resources/subscribe', async (request, ctx) => {
          await subscriptions.subscribe(server, request.params.uri, {
            signal: ctx.mcpReq.signal,
          });
          return {};
        });
        server.setRequestHandler('resources/unsubscribe', async (request) => {
          await subscriptions.unsubscribe(server, request.params.uri);
          return {};
        });
      }
      if (prompts !== undefined) {
        server.setRequestHandler('prompts/list', (request, ctx) => {
          onePage(request.params);
          return prompts.list({ signal: ctx.mcpReq.signal });
        });
        server.setRequestHandler('prompts/get', (request, ctx) =>
          prompts.get(request.params, { signal: ctx.mcpReq.signal }),
        );
      }
      if (logging !== undefined) {
        // Replaces the SDK's handler: levels are kept per instance here, and passed on.
        server.setRequestHandler('logging/setLevel', async (request) => {
          if (!isModern(server)) {
            levels.set(server, request.params.level);
            await updateLevel();
          }
          return {};
        });
      }
    },
    forget(server) {
      subscriptions?.drop(server);
      levels.delete(server);
    },
    close() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
