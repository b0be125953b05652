import {
  type McpSubscription,
  ProtocolError,
  ProtocolErrorCode,
  type Resource,
  type ResourceTemplateType,
  UriTemplate,
} from '@modelcontextprotocol/client';
import type { McpResourceEvent, McpResourceSource, McpSourceRequest } from '../mcp/index.js';
import { UpstreamUnavailableError } from '../mcp/index.js';
import type { GatewayUpstreams, Upstream } from './gateway-upstreams.js';

/** Options of {@link createGatewayResources}. */
export interface GatewayResourcesOptions {
  readonly upstreams: GatewayUpstreams;
  /** A failure in the background (an upstream that refused a subscription again after reconnecting). */
  readonly report: (error: unknown) => void;
}

/** A gateway's resources: those of its upstreams, and the resource sources' lifecycle. */
export interface GatewayResources extends McpResourceSource {
  /** Stops following the upstreams. */
  close(): void;
}

/** No suggestions. */
const NO_COMPLETIONS = { completion: { values: [], hasMore: false } };

const offersResources = (upstream: Upstream): boolean =>
  upstream.connection.capabilities?.resources !== undefined;

const notFound = (uri: string, servers: readonly string[]): ProtocolError =>
  new ProtocolError(
    ProtocolErrorCode.ResourceNotFound,
    `Resource ${JSON.stringify(uri)} not found: no server lists it or has a resource template that matches it${servers.length === 0 ? ' (no server with resources is reachable now)' : ` (servers with resources: ${servers.join(', ')})`}. List the resources and templates, and use a URI from them.`,
    { uri },
  );

/**
 * The resources of a gateway's upstreams as one set (`McpResourceSource`). Lists are the
 * servers' lists joined in configuration order, each server's pages followed to the end; a
 * URI two servers list is listed once, for the first of them. A server that cannot be
 * reached is left out of lists.
 *
 * A URI is routed (read, subscribe) to the first server, in configuration order, that lists
 * it; else to the first whose resource template matches it; else, when only one server
 * offers resources, to that one (it may know resources it does not list); else the request
 * fails with `-32002` (resource not found). Subscriptions are made on the server the URI
 * routes to, and made again when that server is reconnected.
 */
export function createGatewayResources(options: GatewayResourcesOptions): GatewayResources {
  const { upstreams, report } = options;
  const listeners = new Set<(event: McpResourceEvent) => void>();
  const emit = (event: McpResourceEvent): void => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        report(error);
      }
    }
  };
  /** Where each subscribed URI is watched, and the stream of a 2026-07-28 server. */
  const watched = new Map<string, { server: string; stream?: McpSubscription }>();

  /** The server each URI of the last lists goes to, to route without listing again. */
  let routes = new Map<string, string>();
  const withResources = (): Upstream[] => upstreams.list().filter(offersResources);

  /** Each reachable server's items, in configuration order; unreachable ones left out. */
  const gather = async <T>(
    what: string,
    fetch: (upstream: Upstream) => Promise<readonly T[]>,
  ): Promise<{ server: string; items: readonly T[] }[]> => {
    const lists = await Promise.all(
      withResources().map(async (upstream) => {
        try {
          return { server: upstream.name, items: await fetch(upstream) };
        } catch (error) {
          if (!(error instanceof UpstreamUnavailableError)) {
            report(
              new Error(
                `${what} of server "${upstream.name}" failed and is left out: ${(error as Error).message}`,
                { cause: error },
              ),
            );
          }
          return { server: upstream.name, items: [] };
        }
      }),
    );
    return lists;
  };

  const listed = async (request: McpSourceRequest) => {
    const lists = await gather<Resource>('resources/list', async ({ connection }) => {
      const { resources } = await connection.request('resources/list', (client) =>
        client.listResources(undefined, { signal: request.signal, cacheMode: 'bypass' }),
      );
      return resources;
    });
    const next = new Map<string, string>();
    for (const { server, items } of lists) {
      for (const { uri } of items) if (!next.has(uri)) next.set(uri, server);
    }
    routes = next;
    return lists;
  };
  const templates = (request: McpSourceRequest) =>
    gather<ResourceTemplateType>('resources/templates/list', async ({ connection }) => {
      const { resourceTemplates } = await connection.request('resources/templates/list', (client) =>
        client.listResourceTemplates(undefined, { signal: request.signal, cacheMode: 'bypass' }),
      );
      return resourceTemplates;
    });

  /** The server a URI goes to; see the rules above. */
  const route = async (uri: string, request: McpSourceRequest): Promise<Upstream> => {
    const candidates = withResources();
    const byName = (name: string) => candidates.find((upstream) => upstream.name === name);
    const known = byName(routes.get(uri) ?? '');
    if (known !== undefined) return known;
    for (const { server, items } of await listed(request)) {
      const upstream = byName(server);
      if (upstream !== undefined && items.some((resource) => resource.uri === uri)) return upstream;
    }
    for (const { server, items } of await templates(request)) {
      const upstream = byName(server);
      const matches = items.some((template) => {
        try {
          return new UriTemplate(template.uriTemplate).match(uri) !== null;
        } catch {
          return false;
        }
      });
      if (upstream !== undefined && matches) return upstream;
    }
    const [only, ...others] = candidates;
    if (only !== undefined && others.length === 0) return only;
    throw notFound(
      uri,
      candidates.map((upstream) => upstream.name),
    );
  };

  /** Subscribes on the server itself: `resources/subscribe`, or a listen stream on 2026-07-28. */
  const watch = async (upstream: Upstream, uri: string, signal?: AbortSignal) => {
    const { connection, name } = upstream;
    if (connection.capabilities?.resources?.subscribe !== true) {
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Resource ${JSON.stringify(uri)} belongs to server "${name}", which offers no resource subscriptions; read it again instead.`,
      );
    }
    const request = signal === undefined ? {} : { signal };
    if (connection.protocolEra === 'modern') {
      const stream = await connection.request('resources/subscribe', (client) =>
        client.listen({ resourceSubscriptions: [uri] }, request),
      );
      return { server: name, stream };
    }
    await connection.request('resources/subscribe', (client) =>
      client.subscribeResource({ uri }, request),
    );
    return { server: name };
  };

  const stopNotifications = upstreams.onNotification((server, notification) => {
    if (notification.method === 'notifications/resources/list_changed') {
      routes = new Map();
      emit({ kind: 'list_changed' });
    } else if (notification.method === 'notifications/resources/updated') {
      if (watched.get(notification.params.uri)?.server === server) {
        emit({ kind: 'updated', params: notification.params });
      }
    }
  });
  const stopReady = upstreams.onReady((server) => {
    const upstream = upstreams.list().find((entry) => entry.name === server);
    if (upstream === undefined || !offersResources(upstream)) return;
    routes = new Map();
    emit({ kind: 'list_changed' });
    for (const [uri, entry] of watched) {
      if (entry.server !== server) continue;
      watch(upstream, uri)
        .then((again) => {
          if (watched.get(uri) === entry) watched.set(uri, again);
          else void again.stream?.close();
        })
        .catch((error: unknown) =>
          report(
            new Error(
              `server "${server}" is back, but subscribing to ${uri} again failed: ${(error as Error).message}`,
              { cause: error },
            ),
          ),
        );
    }
  });

  return {
    async list(request) {
      const seen = new Set<string>();
      const resources: Resource[] = [];
      for (const { items } of await listed(request)) {
        for (const resource of items) {
          if (seen.has(resource.uri)) continue;
          seen.add(resource.uri);
          resources.push(resource);
        }
      }
      return { resources };
    },
    async listTemplates(request) {
      const resourceTemplates = (await templates(request)).flatMap(({ items }) => items);
      return { resourceTemplates };
    },
    async read(params, request) {
      const { connection } = await route(params.uri, request);
      return connection.request('resources/read', (client) =>
        client.readResource(params, { signal: request.signal, cacheMode: 'bypass' }),
      );
    },
    async complete(params, request) {
      const { ref } = params;
      if (ref.type !== 'ref/resource') return NO_COMPLETIONS;
      // The template is named by its URI template: the first server that lists it answers.
      for (const { server, items } of await templates(request)) {
        if (!items.some((template) => template.uriTemplate === ref.uri)) continue;
        const connection = upstreams.connections.get(server);
        if (connection?.capabilities?.completions === undefined) return NO_COMPLETIONS;
        return connection.request('completion/complete', (client) =>
          client.complete(params, { signal: request.signal }),
        );
      }
      return NO_COMPLETIONS;
    },
    async subscribe(uri, request) {
      const upstream = await route(uri, request);
      watched.set(uri, await watch(upstream, uri, request.signal));
    },
    async unsubscribe(uri) {
      const entry = watched.get(uri);
      if (entry === undefined) return;
      watched.delete(uri);
      if (entry.stream !== undefined) {
        await entry.stream.close();
        return;
      }
      const connection = upstreams.connections.get(entry.server);
      await connection?.request('resources/unsubscribe', (client) =>
        client.unsubscribeResource({ uri }),
      );
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      stopNotifications();
      stopReady();
      listeners.clear();
      for (const entry of watched.values()) void entry.stream?.close();
      watched.clear();
    },
  };
}
