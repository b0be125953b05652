import type { Server } from '@modelcontextprotocol/server';
import { HintgateError } from '../../errors/index.js';
import type { Runtime } from '../../runtime/index.js';

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

/**
 * Tells clients when the tool list they see changed: on every registry change and every
 * {@link ToolListNotifier.refresh} (after a mode switch, on `tools/list`), the rendered
 * list is compared with the last one, and only a real change sends
 * `notifications/tools/list_changed` to the connection-bound instances and calls the
 * listeners.
 */
export function createToolListNotifier(options: ToolListNotifierOptions): ToolListNotifier {
  const { runtime, report } = options;
  const scopeOption = options.scopes === undefined ? {} : { scopes: options.scopes };
  const listeners = new Set<{ readonly listener: () => void }>();
  const fingerprint = (): string => JSON.stringify(runtime.listTools(scopeOption));
  let last = fingerprint();
  let closed = false;

  const refresh = (): void => {
    if (closed) return;
    const next = fingerprint();
    if (next === last) return;
    last = next;
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
