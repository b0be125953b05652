import { HintgateError } from '../../errors/index.js';
import type { ToolListing } from '../../tool/index.js';
import { HINT_NAMES, nullRecord, ownValue, type ToolAnnotations } from '../../tool/index.js';
import { type DefinitionDigests, definitionDigests } from './definition-digests.js';
import type { LockFile, PinnedTool, PinVerdict } from './lock-file.js';
import { pinnedDefinition } from './pinned-definition.js';

/** Options of {@link pinTools}. */
export interface PinToolsOptions {
  /** Name of the server the tools come from, as the configuration names it. */
  readonly server: string;
  /** The server's tools as listed now. Names must be unique. */
  readonly listings: readonly ToolListing[];
  /** Time recorded as `pinnedAt` of definitions pinned now. Default: the current time. */
  readonly now?: Date;
  /**
   * Probe verdicts to record, by tool name (each must be one of `listings`). A tool without
   * one keeps its recorded verdict while its definition is unchanged; a changed definition
   * loses it, since the verdict was about the old one.
   */
  readonly verdicts?: Readonly<Record<string, PinVerdict>>;
  /**
   * When true, pinned tools of the server that are not in `listings` stay pinned (to pin a
   * single new tool). Default false: the server's pins become exactly `listings`.
   */
  readonly keepUnlisted?: boolean;
  /**
   * The digests of a listing, when the caller has them already. Default:
   * `definitionDigests`.
   */
  readonly digests?: (listing: ToolListing) => DefinitionDigests;
  /**
   * When true, recorded definitions hold the listings' own schema and `_meta` objects
   * rather than copies: for a caller that hands its listings over and changes them no more
   * (`hintgate pin`, thousands of tools). Default false.
   */
  readonly shareListings?: boolean;
}

/** Title and hints as claimed, only the keys that a lock file keeps. */
function claimedAnnotations(annotations: ToolAnnotations | undefined): ToolAnnotations {
  const out: Record<string, string | boolean> = {};
  if (typeof annotations?.title === 'string') out.title = annotations.title;
  for (const hint of HINT_NAMES) {
    const claimed = annotations?.[hint];
    if (typeof claimed === 'boolean') out[hint] = claimed;
  }
  return out as ToolAnnotations;
}

const invalid = (message: string): HintgateError =>
  new HintgateError('invalid_option', `pinTools: ${message}`);

/**
 * Pins the listed tools of `server`: returns a new lock in which each of them is recorded
 * with its definition hash, the hash without its name, per-field digests, its claimed
 * annotations and the definition itself (for reviews: `hintgate pin` diffs against it). A tool whose definition is unchanged keeps its `pinnedAt` and verdict, so
 * pinning again writes the same file. Other servers are left as they are; `lock` is not
 * modified.
 */
export function pinTools(lock: LockFile, options: PinToolsOptions): LockFile {
  const { server, listings, verdicts = {}, keepUnlisted = false } = options;
  const { digests = definitionDigests, shareListings = false } = options;
  if (typeof server !== 'string' || server === '')
    throw invalid('server must be a non-empty name.');
  const pinnedAt = (options.now ?? new Date()).toISOString();
  const before = ownValue(lock.servers, server)?.tools ?? {};
  const tools = nullRecord<PinnedTool>(keepUnlisted ? Object.entries(before) : []);
  const listed = new Set<string>();
  for (const listing of listings) {
    if (listed.has(listing.name)) {
      throw invalid(`server "${server}" lists tool "${listing.name}" twice.`);
    }
    listed.add(listing.name);
    const { hash, bodyHash, fields } = digests(listing);
    const previous = ownValue(before, listing.name);
    const kept = previous?.hash === hash ? previous : undefined;
    const verdict = ownValue(verdicts, listing.name) ?? kept?.verdict;
    // An unchanged pin that records its definition is the pin the listing would make.
    if (kept?.definition !== undefined && verdict === kept.verdict) {
      tools[listing.name] = kept;
      continue;
    }
    tools[listing.name] = {
      hash,
      bodyHash,
      fields,
      annotations: claimedAnnotations(listing.annotations),
      pinnedAt: kept?.pinnedAt ?? pinnedAt,
      ...(verdict === undefined ? {} : { verdict }),
      definition: pinnedDefinition(listing, { copy: !shareListings }),
    };
  }
  const unknown = Object.keys(verdicts).filter((name) => !listed.has(name));
  if (unknown.length > 0) {
    throw invalid(`verdicts name tools that are not listed: ${unknown.join(', ')}.`);
  }
  const servers = nullRecord(Object.entries(lock.servers));
  servers[server] = { tools };
  return { version: lock.version, servers };
}
