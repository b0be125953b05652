import { type Prompt, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { McpPromptSource, McpSourceRequest } from '../mcp/index.js';
import { UpstreamUnavailableError } from '../mcp/index.js';
import { exposedNames } from './exposed-names.js';
import type { GatewayUpstreams } from './gateway-upstreams.js';

/** Options of {@link createGatewayPrompts}. */
export interface GatewayPromptsOptions {
  readonly upstreams: GatewayUpstreams;
  /** A prompt left out (its name clashes even prefixed), a list that failed. */
  readonly report: (error: unknown) => void;
}

/** A gateway's prompts: those of its upstreams. */
export interface GatewayPrompts extends McpPromptSource {
  /** Stops following the upstreams. */
  close(): void;
}

interface Named {
  readonly server: string;
  readonly prompt: Prompt;
}

const MAX_NAMES_LISTED = 40;

/** No suggestions. */
const NO_COMPLETIONS = { completion: { values: [], hasMore: false } };

/**
 * The prompts of a gateway's upstreams as one list (`McpPromptSource`), in configuration
 * order, each server's pages followed to the end. Prompts are named like tools: a prompt
 * keeps its name unless another server has a prompt of the same name, then each is
 * `<server>__<prompt>` (`exposedNames`). `prompts/get` goes to the server the name
 * belongs to, with the server's own name for the prompt; an unknown name fails with
 * `-32602` (invalid params) naming the prompts there are. A server that cannot be reached
 * is left out of the list.
 */
export function createGatewayPrompts(options: GatewayPromptsOptions): GatewayPrompts {
  const { upstreams, report } = options;
  const listeners = new Set<() => void>();
  const changed = (): void => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        report(error);
      }
    }
  };
  /** Prompt by exposed name, from the last list. */
  let byName = new Map<string, Named>();
  const told = new Set<string>();

  const gather = async (request: McpSourceRequest): Promise<Map<string, Named>> => {
    const servers = upstreams
      .list()
      .filter((upstream) => upstream.connection.capabilities?.prompts !== undefined);
    const lists = await Promise.all(
      servers.map(async ({ name, connection }) => {
        try {
          const { prompts } = await connection.request('prompts/list', (client) =>
            client.listPrompts(undefined, { signal: request.signal, cacheMode: 'bypass' }),
          );
          return { server: name, prompts };
        } catch (error) {
          if (!(error instanceof UpstreamUnavailableError)) {
            report(
              new Error(
                `prompts/list of server "${name}" failed and is left out: ${(error as Error).message}`,
                { cause: error },
              ),
            );
          }
          return { server: name, prompts: [] as Prompt[] };
        }
      }),
    );
    const named = exposedNames(
      lists.map(({ server, prompts }) => ({ server, tools: prompts.map((prompt) => prompt.name) })),
      { kind: 'prompt', valid: () => true },
    );
    for (const problem of named.problems) {
      if (told.has(problem.message)) continue;
      told.add(problem.message);
      report(new Error(problem.message));
    }
    const next = new Map<string, Named>();
    for (const { server, prompts } of lists) {
      const names = named.names.get(server);
      for (const prompt of prompts) {
        const exposed = names?.get(prompt.name);
        if (exposed !== undefined && !next.has(exposed)) next.set(exposed, { server, prompt });
      }
    }
    byName = next;
    return next;
  };

  const stopNotifications = upstreams.onNotification((_server, notification) => {
    if (notification.method !== 'notifications/prompts/list_changed') return;
    byName = new Map();
    changed();
  });
  const stopReady = upstreams.onReady((server) => {
    if (upstreams.connections.get(server)?.capabilities?.prompts === undefined) return;
    byName = new Map();
    changed();
  });

  return {
    async list(request) {
      const named = await gather(request);
      return { prompts: [...named].map(([name, { prompt }]) => ({ ...prompt, name })) };
    },
    async get(params, request) {
      const found = byName.get(params.name) ?? (await gather(request)).get(params.name);
      if (found === undefined) {
        const names = [...byName.keys()];
        const shown = names.slice(0, MAX_NAMES_LISTED).join(', ');
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown prompt ${JSON.stringify(params.name)}. ${names.length === 0 ? 'No prompts are available.' : `Available prompts: ${shown}${names.length > MAX_NAMES_LISTED ? `, and ${names.length - MAX_NAMES_LISTED} more` : ''}.`}`,
        );
      }
      const connection = upstreams.connections.get(found.server);
      if (connection === undefined) {
        throw new UpstreamUnavailableError(
          found.server,
          `MCP server "${found.server}" is not connected; prompt "${params.name}" was not fetched.`,
        );
      }
      return connection.request('prompts/get', (client) =>
        client.getPrompt({ ...params, name: found.prompt.name }, { signal: request.signal }),
      );
    },
    async complete(params, request) {
      const { ref } = params;
      if (ref.type !== 'ref/prompt') return NO_COMPLETIONS;
      const found = byName.get(ref.name) ?? (await gather(request)).get(ref.name);
      const connection = found === undefined ? undefined : upstreams.connections.get(found.server);
      // A client asks as the user types: no server to ask, or one that cannot, has no answer.
      if (found === undefined || connection?.capabilities?.completions === undefined) {
        return NO_COMPLETIONS;
      }
      return connection.request('completion/complete', (client) =>
        client.complete(
          { ...params, ref: { ...ref, name: found.prompt.name } },
          { signal: request.signal },
        ),
      );
    },
    onListChanged(listener) {
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
