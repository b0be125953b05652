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
 * node are merged (X absorbs everything, S absorbs IS, IX absorbs IS).
 */
export function callLocks(input: CallLockInput): Lock[] {
  const write = input.class !== 'read';
  const leaf: LockMode = write ? 'X' : 'S';
  const intent: LockMode = write ? 'IX' : 'IS';
  const modes = new Map<string, { label: string; modes: Set<LockMode> }>();
  const add = (node: string, label: string, mode: LockMode): void => {
    const entry = modes.get(node);
    if (entry === undefined) modes.set(node, { label, modes: new Set([mode]) });
    else entry.modes.add(mode);
  };

  const chains = input.resourceKeys.map((key) =>
    keyHierarchy(normalizeResourceKey(key, input.workspace)),
  );
  const wholeOrigin = chains.length === 0 || chains.some((chain) => chain.length === 0);
  add(rootNode(input.origin), `origin:${input.origin}`, wholeOrigin ? leaf : intent);
  if (!wholeOrigin) {
    for (const chain of chains) {
      chain.forEach((key, index) => {
        add(keyNode(input.origin, key), key, index === chain.length - 1 ? leaf : intent);
      });
    }
  }
  if (write && input.openWorld && input.serializeOpenWorldWrites !== false) {
    add(WORLD_NODE, 'world', 'X');
  }

  const locks: Lock[] = [];
  for (const [node, { label, modes: held }] of modes) {
    if (held.has('X')) {
      locks.push({ node, label, mode: 'X' });
      continue;
    }
    if (held.has('S')) held.delete('IS');
    if (held.has('IX')) held.delete('IS');
    for (const mode of held) locks.push({ node, label, mode });
  }
  return locks;
}
