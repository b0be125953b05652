import { isDeepStrictEqual } from 'node:util';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type { CheckedMcpServerOptions } from './mcp-server-options.js';
import {
  type McpToolProblem,
  type RemoteCall,
  type RemoteToolSet,
  toRemoteTools,
} from './remote-tool.js';

/**
 * A server's tools as one origin of a registry: added on the first list, replaced with
 * `setTools` when the list changes (tools whose definition did not change keep their
 * objects), removed on close.
 */
export class RemoteToolOrigin {
  readonly #options: CheckedMcpServerOptions;
  readonly #call: RemoteCall;
  #set: RemoteToolSet | undefined;
  #listed: readonly McpTool[] = Object.freeze([]);
  #registered = false;
  /** Problems found on a tool's first call (its schemas are compiled then), by tool. */
  #late = new Map<string, McpToolProblem[]>();
  /** Problems of the list as it came over the wire: tools the MCP client could not read. */
  #wire: readonly McpToolProblem[] = [];

  constructor(options: CheckedMcpServerOptions, call: RemoteCall) {
    this.#options = options;
    this.#call = call;
  }

  /** The definitions as the server listed them last. */
  get listed(): readonly McpTool[] {
    return this.#listed;
  }

  /**
   * Problems of that list: those seen when it was listed, then those found since on a
   * tool's first call (tools' schemas are compiled when first needed).
   */
  get problems(): readonly McpToolProblem[] {
    const listed = this.#set?.problems ?? [];
    const known = this.#wire.length === 0 ? listed : [...this.#wire, ...listed];
    return this.#late.size === 0 ? known : [...known, ...[...this.#late.values()].flat()];
  }

  /**
   * Registers a list as the origin's tools. Returns false when it equals the current one.
   * `wire` are the list's problems found before it was read (tools the MCP client could
   * not read), reported with the others.
   *
   * @throws what the registry throws (a taken origin or tool name); nothing changes then.
   */
  apply(listed: readonly McpTool[], wire: readonly McpToolProblem[] = []): boolean {
    // Compared with the list at hand (whose tools keep their definitions anyway) only once
    // there is one: the first list costs no digest or copy.
    if (this.#registered && isDeepStrictEqual(listed, this.#listed)) {
      this.#wire = [...wire];
      return false;
    }
    const { registry, name, layer, trusted, concurrency, schemas } = this.#options;
    const set = toRemoteTools(listed, name, this.#call, this.#set, {
      schemas,
      onProblem: (problem) => {
        // A tool that is no longer listed as it was has no say.
        if (this.#set?.made.get(problem.name)?.outcome.tool === undefined) return;
        const known = this.#late.get(problem.name) ?? [];
        this.#late.set(problem.name, [...known, problem]);
      },
    });
    if (this.#registered) registry.setTools(name, set.tools);
    else {
      registry.addOrigin({
        name,
        layer,
        trusted,
        ...(concurrency === undefined ? {} : { concurrency }),
        tools: set.tools,
      });
      this.#registered = true;
    }
    for (const tool of this.#late.keys()) {
      if (set.made.get(tool)?.outcome !== this.#set?.made.get(tool)?.outcome)
        this.#late.delete(tool);
    }
    this.#set = set;
    this.#wire = [...wire];
    this.#listed = Object.freeze([...listed]);
    return true;
  }

  /** Removes the origin from the registry, if it is still there. */
  remove(): void {
    if (!this.#registered) return;
    this.#registered = false;
    const { registry, name } = this.#options;
    if (registry.origins().some((o) => o.name === name)) registry.removeOrigin(name);
  }
}
