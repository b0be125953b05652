import type { ToolClass } from '../tool/index.js';
import type { Lock, LockMode } from './lock-mode.js';
import { keyHierarchy, normalizeResourceKey } from './resource-key.js';

/** What decides a call's locks. */
export interface CallLockInput {
  /** Origin (server) of the tool: the root of its lock tree. */
  readonly origin: string;
  /** Class of the call under its effective hints. */
  readonly class: ToolClass;
  /** Effective `openWorldHint`. */
  readonly openWorld: boolean;
  /** Resource keys of the call, raw; empty means the whole origin. */
  readonly resourceKeys: readonly string[];
  /** Open-world writes also take X on the shared `world` root. Default true. */
  readonly serializeOpenWorldWrites?: boolean;
  /** Directory that absolute path keys are made relative to. */
  readonly workspace?: string;
}

/** Node id of the shared root that orders open-world writes across origins. */
export const WORLD_NODE = 'world';

const rootNode = (origin: string): string => `o\u0000${origin}`;
const keyNode = (origin: string, key: string): string => `o\u0000${origin}\u0000${key}`;

/**
 * The locks a call takes (DESIGN, scheduling): S on its origin root for a read without
 * keys, X for a write without keys; with keys, IS/IX on the root and every ancestor of a
 * key and S/X on the key itself; X on `world` for an open-world write. Several locks on one
 * node are merged (X absorbs everything, S absorbs IS, IX absorbs IS). Locks come in the
 * order their nodes are first met: the root, each key's chain from its top, `world`.
 *
 * A call's locks are all of its class's two modes (S and IS for a read, X and IX for the
 * others), so a node merges into the strong one when any of its locks is, else stays the
 * intention mode: one mode per node. A call of one key (the common case) meets no node
 * twice, and is made without any merging structure: this runs for every call whose keys
 * were not seen lately (a call on a new file, say).
 */
export function callLocks(input: CallLockInput): Lock[] {
  const write = input.class !== 'read';
  const leaf: LockMode = write ? 'X' : 'S';
  const intent: LockMode = write ? 'IX' : 'IS';
  const { origin, resourceKeys } = input;
  const chains: string[][] = [];
  let wholeOrigin = resourceKeys.length === 0;
  for (const key of resourceKeys) {
    const chain = keyHierarchy(normalizeResourceKey(key, input.workspace));
    if (chain.length === 0) wholeOrigin = true;
    chains.push(chain);
  }
  const locks: Lock[] = [
    { node: rootNode(origin), label: `origin:${origin}`, mode: wholeOrigin ? leaf : intent },
  ];
  if (!wholeOrigin) {
    // Nodes met twice (keys that share ancestors, or a key that is another's ancestor) are
    // merged through their index in `locks`; a single chain has no node twice.
    const seen = chains.length > 1 ? new Map<string, number>() : undefined;
    for (const chain of chains) {
      const last = chain.length - 1;
      for (let index = 0; index <= last; index += 1) {
        const key = chain[index] as string;
        const node = keyNode(origin, key);
        const mode: LockMode = index === last ? leaf : intent;
        const at = seen?.get(node);
        if (at === undefined) {
          seen?.set(node, locks.length);
          locks.push({ node, label: key, mode });
        } else if (mode === leaf) {
          locks[at] = { node, label: (locks[at] as Lock).label, mode };
        }
      }
    }
  }
  if (write && input.openWorld && input.serializeOpenWorldWrites !== false) {
    locks.push({ node: WORLD_NODE, label: 'world', mode: 'X' });
  }
  return locks;
}
