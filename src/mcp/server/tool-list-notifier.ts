import { isDeepStrictEqual } from 'node:util';
import type { Server } from '@modelcontextprotocol/server';
import { HintgateError } from '../../errors/index.js';
import type { Runtime } from '../../runtime/index.js';
import type { ToolListing } from '../../tool/index.js';

/** Options of {@link createToolListNotifier}. */
export interface ToolListNotifierOptions {
  /** The runtime whose visible tools are listed. */
  readonly runtime: Runtime;
  /** Scopes of the clients; absent: the runtime's own. */
  readonly scopes?: readonly string[] | undefined;
  /** The instances that live for a connection and are told themselves. */
  readonly instances: () => Iterable<Server>;
  /** Called once per change, after the instances were told (for the server's events). */
  readonly onChange: () => void;
  /** Receives errors that cannot reach a client. */
  readonly report: (error: unknown) => void;
}

/** What {@link createToolListNotifier} returns. */
export interface ToolListNotifier {
  /** Checks whether the visible list changed and, if so, tells the instances and listeners. */
  refresh(): void;
  /** Calls `listener` whenever the tool list changed; returns what unsubscribes. */
  onToolsChanged(listener: () => void): () => void;
  /** Stops following the registry and forgets the listeners. */
  close(): void;
}

/** Fields of a listing, each compared by identity first. */
const LISTING_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  '_meta',
  'extras',
] as const satisfies readonly (keyof ToolListing)[];

/**
 * Whether two listings of a tool say the same. A listing refers to its tool's own
 * (immutable) definition, so a tool that did not change gives fields identical to the
 * last listing's, and only a tool made anew is compared in depth.
 */
const sameListing = (a: ToolListing, b: ToolListing): boolean =>
  LISTING_FIELDS.every((field) => a[field] === b[field]) || isDeepStrictEqual(a, b);

/** Whether two rendered lists say the same, tool by tool in order. */
const sameListings = (a: readonly ToolListing[], b: readonly ToolListing[]): boolean =>
  a.length === b.length &&
  a.every((listing, index) => sameListing(listing, b[index] as ToolListing));

/**
 * Tells clients when the tool list they see changed: on every registry change and every
 * {@link ToolListNotifier.refresh} (after a mode switch, on `tools/list`), the rendered
 * list is compared with the last one, and only a real change sends
 * `notifications/tools/list_changed` to the connection-bound instances and calls the
 * listeners. The comparison costs about one look at each tool when few changed: unchanged
 * tools are recognised by identity, and only tools made anew are compared in depth (never
 * the whole list rendered as text).
 */
export function createToolListNotifier(options: ToolListNotifierOptions): ToolListNotifier {
  const { runtime, report } = options;
  const scopeOption = options.scopes === undefined ? {} : { scopes: options.scopes };
  const listeners = new Set<{ readonly listener: () => void }>();
  const render = (): readonly ToolListing[] => runtime.listTools(scopeOption);
  let last = render();
  let closed = false;

  const refresh = (): void => {
    if (closed) return;
    const next = render();
    const same = sameListings(next, last);
    // Kept either way: the next comparison then finds the tools of this list by identity.
    last = next;
    if (same) return;
    for (const server of options.instances()) server.sendToolListChanged().catch(report);
    for (const { listener } of [...listeners]) {
      try {
        listener();
      } catch (error) {
        report(error);
      }
    }
    options.onChange();
  };
  const unsubscribe = runtime.registry.onChange(() => refresh());

  return {
    refresh,
    onToolsChanged(listener) {
      if (typeof listener !== 'function') {
        throw new HintgateError('invalid_option', 'onToolsChanged expects a function () => void.');
      }
      const entry = { listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    close() {
      closed = true;
      unsubscribe();
      listeners.clear();
    },
  };
}
