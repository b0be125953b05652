import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import {
  comparePins,
  type DefinitionDigests,
  definitionDigests,
  type LockFile,
  type PinReport,
  pinTools,
  readLockFileIfChanged,
  sameLockFile,
  updateLockFile,
} from '../check/pin.js';
import { HintgateError } from '../errors/index.js';
import type { LoadedGatewayConfig } from '../gateway/config/index.js';
import { listMcpServerTools, remoteToolListings } from '../mcp/pin.js';
import { createRegistry } from '../registry/index.js';
import { nullRecord, type ToolListing } from '../tool/index.js';
import {
  GATEWAY_CLIENT_CAPABILITIES,
  type UpstreamConnectSettings,
  upstreamOptions,
} from './upstream-options.js';

/** Options of {@link pinGateway}. */
export interface PinGatewayOptions extends Omit<UpstreamConnectSettings, 'reconnect'> {
  /** The loaded configuration: its servers are pinned into its `pin.path`. */
  readonly config: LoadedGatewayConfig;
  /** Time recorded as `pinnedAt` of definitions pinned now. Default: the current time. */
  readonly now?: Date;
  /**
   * Shown what pinning would change before anything is written (every server was listed,
   * the pin file read); resolve `true` to write, `false` to write nothing (`written: false`).
   * The pin file is not locked meanwhile: if another writer changes it before the answer, the
   * write is refused with `lock_file_changed`, so that what is written is what was reviewed.
   * Default: write without asking.
   */
  readonly review?: (plan: PinPlan) => boolean | Promise<boolean>;
}

/** What {@link pinGateway} would write, for a review before it is written. */
export interface PinPlan {
  /** The pin file. */
  readonly path: string;
  /** The pins as they are in it (empty when there is no file). */
  readonly lock: LockFile;
  /** Per configured server, in configuration order: its tools compared with the pins. */
  readonly reports: readonly PinReport[];
  /** Per configured server, in the same order: its tools as listed now. */
  readonly listings: readonly (readonly ToolListing[])[];
  /** Servers that have pins but are no longer configured; their pins would be dropped. */
  readonly dropped: readonly string[];
  /** Whether writing would change the file. */
  readonly changes: boolean;
}

/** What {@link pinGateway} did. */
export interface PinGatewayResult {
  /** The pin file written. */
  readonly path: string;
  /** Per configured server, in configuration order: its tools compared with the pins before. */
  readonly reports: readonly PinReport[];
  /** Servers that had pins but are no longer configured; their pins were dropped. */
  readonly dropped: readonly string[];
  /** Whether the file changed. */
  readonly changed: boolean;
  /** False when `review` declined: nothing was written. */
  readonly written: boolean;
  /** The pins as written (as they were, when nothing was written). */
  readonly lock: LockFile;
}

/**
 * One server's tools as the gateway lists them, each with its digests: listed once (no
 * tools made, nothing registered) and hashed once for the review and the write.
 */
interface ListedServer {
  readonly listings: readonly ToolListing[];
  readonly digests: ReadonlyMap<string, DefinitionDigests>;
}

/**
 * Lists one server's tools as the gateway sees them, and closes the connection: `closings`
 * gets the promise of its end.
 */
async function listServer(
  server: LoadedGatewayConfig['servers'][number],
  settings: UpstreamConnectSettings,
  closings: Promise<void>[],
): Promise<ListedServer> {
  const { tools: listed, closed } = await listMcpServerTools(
    upstreamOptions(server, createRegistry({ env: {} }), {
      ...settings,
      reconnect: false,
      // Declared as the gateway declares them, so that the tools pinned are those it lists.
      serverRequests: {
        capabilities: GATEWAY_CLIENT_CAPABILITIES,
        handle: (method) =>
          Promise.reject(
            new ProtocolError(
              ProtocolErrorCode.MethodNotFound,
              `${method} cannot be answered while hintgate pins the tools`,
            ),
          ),
      },
    }),
  );
  closings.push(closed);
  // The listed objects themselves, not sorted copies: hashing and writing sort each
  // definition's keys as they go (canonicalText). A sorted copy of every listing saved
  // about 5% of the CPU of pinning 10,000 tools, but kept both copies until the process
  // ended (the listed ones had been promoted): about 10 MB more at its peak.
  const listings = remoteToolListings(listed, server.name);
  const digests = new Map<string, DefinitionDigests>();
  for (const listing of listings) digests.set(listing.name, definitionDigests(listing));
  return { listings, digests };
}

/**
 * `hintgate pin`: connects to every configured server, and records the definition of each
 * tool it lists in the pin file (`config.pin.path`), so that the gateway runs these
 * definitions and holds back any that change. Pins of servers no longer configured are
 * dropped; tools whose definition did not change keep their pin time. The file is written
 * atomically under a lock, and only when it changes.
 *
 * Nothing is written unless every server could be listed, nor when `review` declines.
 * Each server is closed once its tools are listed, and ends while they are reviewed and
 * pinned; `pinGateway` settles once every one has ended.
 *
 * @throws HintgateError `mcp_connect_failed` naming the server that could not be listed
 * (the first in configuration order), `invalid_lock_file` for a pin file that is not one,
 * `lock_file_locked` or `lock_file_write_failed`, `lock_file_changed` when the pin file
 * changed while `review` was deciding.
 */
export async function pinGateway(options: PinGatewayOptions): Promise<PinGatewayResult> {
  const closings: Promise<void>[] = [];
  try {
    return await pinListed(options, closings);
  } finally {
    // The servers end while their tools are reviewed and pinned (one that does not exit
    // when its stdin ends is given its grace period meanwhile); none outlives the pinning.
    await Promise.all(closings);
  }
}

async function pinListed(
  options: PinGatewayOptions,
  closings: Promise<void>[],
): Promise<PinGatewayResult> {
  const { config } = options;
  const settings: UpstreamConnectSettings = {
    ...(options.connectTimeoutMs === undefined
      ? {}
      : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
  };
  const listed = await Promise.allSettled(
    config.servers.map((server) => listServer(server, settings, closings)),
  );
  const failed = listed.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) {
    const reason = failed.reason as unknown;
    if (reason instanceof HintgateError) throw reason;
    throw new HintgateError(
      'mcp_connect_failed',
      reason instanceof Error ? reason.message : String(reason),
      { cause: reason },
    );
  }
  const servers = listed.map((outcome) =>
    outcome.status === 'fulfilled' ? outcome.value : { listings: [], digests: new Map() },
  );
  const listings = servers.map((server) => server.listings);
  const digestsOf =
    (index: number) =>
    (listing: ToolListing): DefinitionDigests =>
      servers[index]?.digests.get(listing.name) ?? definitionDigests(listing);
  const configured = new Set(config.servers.map((server) => server.name));
  const pinAll = (current: LockFile): LockFile => {
    let next: LockFile = {
      version: current.version,
      servers: nullRecord(Object.entries(current.servers).filter(([name]) => configured.has(name))),
    };
    config.servers.forEach((server, index) => {
      next = pinTools(next, {
        server: server.name,
        listings: listings[index] ?? [],
        digests: digestsOf(index),
        shareListings: true,
        ...(options.now === undefined ? {} : { now: options.now }),
      });
    });
    return sameLockFile(next, current) ? current : next;
  };
  const planOf = (current: LockFile, next: LockFile): PinPlan => ({
    path: config.pin.path,
    lock: current,
    reports: config.servers.map((server, index) =>
      comparePins(current, {
        server: server.name,
        listings: listings[index] ?? [],
        digests: digestsOf(index),
      }),
    ),
    listings,
    dropped: Object.keys(current.servers).filter((name) => !configured.has(name)),
    changes: next !== current,
  });
  // Read once before the lock is taken: the plan is made from it, and under the lock the
  // file is read and parsed again only if it changed meanwhile (its text is not kept).
  const { lock: reviewed, stamp } = await readLockFileIfChanged(config.pin.path);
  const next = pinAll(reviewed);
  let plan = planOf(reviewed, next);
  if (options.review !== undefined && !(await options.review(plan))) {
    return {
      path: config.pin.path,
      reports: plan.reports,
      dropped: plan.dropped,
      changed: false,
      written: false,
      lock: reviewed,
    };
  }
  let before: LockFile | undefined;
  const lock = await updateLockFile(
    config.pin.path,
    (current) => {
      before = current;
      if (current === reviewed) return next;
      if (options.review !== undefined && !sameLockFile(current, reviewed)) {
        throw new HintgateError(
          'lock_file_changed',
          `${config.pin.path} changed while the changes were reviewed (another "hintgate pin" or "hintgate check --write-pin"?). Nothing was written; run "hintgate pin" again to review the pins as they are now.`,
        );
      }
      const again = pinAll(current);
      plan = planOf(current, again);
      return again;
    },
    { known: { lock: reviewed, stamp } },
  );
  return {
    path: config.pin.path,
    reports: plan.reports,
    dropped: plan.dropped,
    changed: before === undefined || lock !== before,
    written: true,
    lock,
  };
}
