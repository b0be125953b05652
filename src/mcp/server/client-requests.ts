import {
  type ClientCapabilities,
  type CreateMessageRequest,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ListRootsRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../../tool/index.js';
import { supportsFormElicitation } from './approval-form.js';

/** Requests an upstream server sends that a client of this server may answer. */
export type ClientRequestMethod = 'roots/list' | 'sampling/createMessage' | 'elicitation/create';

/** Longest delay `setTimeout` honours: a person may take long to answer a form. */
const MAX_TIMER_MS = 2_147_483_647;

/** What {@link createClientRequests} returns. */
export interface ClientRequests {
  /**
   * Notes that `server`'s client makes a call of a tool of `origin`: requests of that
   * origin's server go to this client first while the call is under way. Returns what
   * ends it.
   */
  track(server: Server, origin: string | undefined): () => void;
  /**
   * Asks a connected client to answer a request of the upstream server `origin`: the
   * client whose call of that server is under way (the latest first), else the client
   * active last, of those that declared the capability.
   *
   * @throws ProtocolError `MethodNotFound` when no connected client can answer it.
   */
  ask(
    origin: string,
    method: ClientRequestMethod,
    params: unknown,
    signal: AbortSignal,
  ): Promise<unknown>;
  /** Follows `server`'s client: its roots changing, its start. */
  register(server: Server): void;
  /** Calls `listener` when a client's roots may have changed (it said so, or it started). */
  onRootsChanged(listener: () => void): () => void;
}

/** Whether the client of `server` declared what `method` with `params` needs. */
const supports = (
  capabilities: ClientCapabilities | undefined,
  method: ClientRequestMethod,
  params: unknown,
): boolean => {
  if (method === 'roots/list') return capabilities?.roots !== undefined;
  if (method === 'sampling/createMessage') return capabilities?.sampling !== undefined;
  const url = isPlainObject(params) && params.mode === 'url';
  return url ? capabilities?.elicitation?.url !== undefined : supportsFormElicitation(capabilities);
};

/**
 * Passes requests of upstream servers (`roots/list`, `sampling/createMessage`,
 * `elicitation/create`) on to the 2025-11-25 clients of a tool server (those it can send
 * requests to), choosing the client by the call under way, and tells when a client's roots
 * may have changed, so that the upstream servers can be told in turn.
 */
export function createClientRequests(options: {
  /** The instances whose clients can be sent requests. */
  readonly instances: () => ReadonlyMap<Server, unknown>;
  readonly report: (error: unknown) => void;
}): ClientRequests {
  const calls: { readonly server: Server; readonly origin: string }[] = [];
  /** Instances by last activity, the latest last. */
  const recent = new Set<Server>();
  const listeners = new Set<{ readonly listener: () => void }>();
  const rootsChanged = (): void => {
    for (const { listener } of [...listeners]) {
      try {
        listener();
      } catch (error) {
        options.report(error);
      }
    }
  };
  const touch = (server: Server): void => {
    recent.delete(server);
    recent.add(server);
  };

  return {
    track(server, origin) {
      touch(server);
      if (origin === undefined) return () => {};
      const entry = { server, origin };
      calls.push(entry);
      return () => {
        const at = calls.indexOf(entry);
        if (at >= 0) calls.splice(at, 1);
      };
    },
    async ask(origin, method, params, signal) {
      const live = options.instances();
      const candidates = [
        ...calls
          .filter((call) => call.origin === origin)
          .map((call) => call.server)
          .reverse(),
        ...[...recent].reverse(),
        ...live.keys(),
      ];
      const server = candidates.find(
        (candidate) =>
          live.has(candidate) && supports(candidate.getClientCapabilities(), method, params),
      );
      if (server === undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `no client connected to the gateway can answer ${method} for server "${origin}" now: none is connected, or none declared the ${method.split('/')[0]} capability`,
        );
      }
      const request = { signal, timeout: MAX_TIMER_MS };
      if (method === 'roots/list') {
        return server.listRoots(params as ListRootsRequest['params'], request);
      }
      if (method === 'sampling/createMessage') {
        return server.createMessage(params as CreateMessageRequest['params'], request);
      }
      return server.elicitInput(
        params as ElicitRequestFormParams | ElicitRequestURLParams,
        request,
      );
    },
    register(server) {
      server.setNotificationHandler('notifications/roots/list_changed', () => rootsChanged());
      const previous = server.oninitialized;
      server.oninitialized = () => {
        touch(server);
        if (server.getClientCapabilities()?.roots !== undefined) rootsChanged();
        previous?.();
      };
      const closed = server.onclose;
      server.onclose = () => {
        recent.delete(server);
        for (let at = calls.length - 1; at >= 0; at -= 1) {
          if (calls[at]?.server === server) calls.splice(at, 1);
        }
        closed?.();
      };
    },
    onRootsChanged(listener) {
      const entry = { listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
  };
}
