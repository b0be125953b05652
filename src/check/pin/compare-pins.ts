import { HintgateError } from '../../errors/index.js';
import type { ToolListing } from '../../tool/index.js';
import {
  type EffectiveHints,
  effectiveAnnotations,
  HINT_NAMES,
  type HintName,
  ownValue,
  SPEC_DEFAULT_HINTS,
  type ToolAnnotations,
} from '../../tool/index.js';
import { type DefinitionDigests, definitionDigests } from './definition-digests.js';
import { DEFINITION_FIELDS, type DefinitionField } from './definition-hash.js';
import type { LockFile, PinnedTool, PinVerdict } from './lock-file.js';
import { sameAsPinned } from './same-as-pinned.js';

/**
 * Where a tool stands against the lock:
 * - `pinned`: listed with the definition that was pinned; the only status that may run as
 *   pinned.
 * - `changed`: listed under a pinned name with another definition; blocked until pinned
 *   again.
 * - `new`: listed, not in the lock.
 * - `removed`: in the lock, not listed (and not renamed).
 * - `renamed`: listed under a name that is not pinned, with the definition of a pinned tool
 *   that is no longer listed; not pinned under its new name.
 */
export type PinStatus = 'pinned' | 'changed' | 'new' | 'removed' | 'renamed';

/** How bad a finding is. */
export type PinSeverity = 'high' | 'medium' | 'low';

/** Stable ids of pin findings. */
export const PIN_FINDING_IDS = [
  'pin-less-caution',
  'pin-changed',
  'pin-renamed',
  'pin-new',
  'pin-removed',
] as const;

/** One of {@link PIN_FINDING_IDS}. */
export type PinFindingId = (typeof PIN_FINDING_IDS)[number];

/** A hint whose value changed between the pinned and the listed definition. */
export interface HintMove {
  /** The hint. */
  readonly hint: HintName;
  /** Claimed value when pinned; undefined when absent. */
  readonly from: boolean | undefined;
  /** Claimed value now; undefined when absent. */
  readonly to: boolean | undefined;
  /** Effective value when pinned (spec defaults applied). */
  readonly effectiveFrom: boolean;
  /** Effective value now. */
  readonly effectiveTo: boolean;
}

/** One tool's comparison. */
export interface ToolPinState {
  /** The tool's name: as listed, or as pinned for `removed`. */
  readonly tool: string;
  readonly status: PinStatus;
  /** `definitionHash` of the listed definition (absent for `removed`). */
  readonly hash?: string;
  /** Hash in the lock (absent for `new`; for `renamed`, the old name's). */
  readonly pinnedHash?: string;
  /** For `changed`: the fields that differ, in {@link DEFINITION_FIELDS} order. */
  readonly changedFields?: readonly DefinitionField[];
  /** For `changed`: every hint whose claimed value differs. */
  readonly hintMoves?: readonly HintMove[];
  /** For `renamed`: the name it was pinned under. */
  readonly renamedFrom?: string;
  /** For `pinned`: the probe verdict recorded with the pin, if any. */
  readonly verdict?: PinVerdict;
}

/** Something about the comparison a person should look at. */
export interface PinFinding {
  readonly id: PinFindingId;
  readonly severity: PinSeverity;
  readonly server: string;
  /** The tool, by its listed name (its pinned name for `pin-removed`). */
  readonly tool: string;
  /** What happened, what it means and what to do. */
  readonly message: string;
  /** For `pin-less-caution`: the hint that moved. */
  readonly move?: HintMove;
}

/** Result of {@link comparePins}. */
export interface PinReport {
  readonly server: string;
  /** One state per listed tool and per removed tool, sorted by name. */
  readonly tools: readonly ToolPinState[];
  /** Findings, most severe first, then by tool and id. */
  readonly findings: readonly PinFinding[];
}

/** Options of {@link comparePins}. */
export interface ComparePinsOptions {
  /** Name of the server, as in the lock. */
  readonly server: string;
  /** The server's tools as listed now. Names must be unique. */
  readonly listings: readonly ToolListing[];
  /**
   * The digests of a listing, when the caller has them already (`hintgate pin` makes them
   * once per tool). Default: `definitionDigests`.
   */
  readonly digests?: (listing: ToolListing) => DefinitionDigests;
}

/**
 * What each hint lets hintgate do once it moves away from its cautious value (the spec
 * default), for messages.
 */
const LESS_CAUTION_EFFECT: Record<HintName, string> = {
  readOnlyHint:
    'calls now count as read-only: they run in parallel with other reads, are retried, and need no approval in ask or auto mode',
  destructiveHint: 'calls no longer count as destructive: auto mode runs them without asking',
  idempotentHint: 'calls now count as idempotent: failed calls are retried',
  openWorldHint:
    'calls no longer count as open-world: they are no longer ordered against other open-world writes',
};

const claimedText = (value: boolean | undefined): string =>
  value === undefined ? 'absent' : String(value);

const moveText = (move: HintMove): string =>
  `${move.hint} ${claimedText(move.from)} -> ${claimedText(move.to)}`;

/** A declared `custom.rateLimit` in words, for a pin finding. */
const declaredLimitText = (annotations: ToolAnnotations | undefined): string => {
  const limit = annotations?.custom?.rateLimit;
  if (limit === undefined) return 'absent';
  const { max, windowMs, maxWaitMs } = (limit ?? {}) as Record<string, unknown>;
  return typeof max === 'number' && typeof windowMs === 'number'
    ? `${max} per ${windowMs} ms${typeof maxWaitMs === 'number' ? ` (wait ${maxWaitMs} ms)` : ''}`
    : JSON.stringify(limit).slice(0, 200);
};

/**
 * `custom.rateLimit 2 per 60000 ms -> absent` when the limit a tool declares on itself
 * changed (the gateway honours it, so a change changes how its calls run); else nothing.
 */
function customRateLimitMove(
  before: ToolAnnotations | undefined,
  after: ToolAnnotations | undefined,
): string[] {
  const canonical = (value: unknown): string =>
    JSON.stringify(
      value ?? null,
      typeof value === 'object' && value !== null ? Object.keys(value).sort() : undefined,
    );
  const from = canonical(before?.custom?.rateLimit);
  const to = canonical(after?.custom?.rateLimit);
  return from === to
    ? []
    : [`custom.rateLimit ${declaredLimitText(before)} -> ${declaredLimitText(after)}`];
}

/** Every hint whose claimed value differs between two sets of annotations. */
export function hintMoves(
  before: ToolAnnotations | undefined,
  after: ToolAnnotations | undefined,
): HintMove[] {
  const effectiveBefore: EffectiveHints = effectiveAnnotations(before);
  const effectiveAfter: EffectiveHints = effectiveAnnotations(after);
  return HINT_NAMES.filter((hint) => before?.[hint] !== after?.[hint]).map((hint) => ({
    hint,
    from: before?.[hint],
    to: after?.[hint],
    effectiveFrom: effectiveBefore[hint],
    effectiveTo: effectiveAfter[hint],
  }));
}

/**
 * The hints that moved toward less caution, judged on effective values (spec defaults
 * applied): `readOnlyHint` false -> true, `destructiveHint` true -> false, `idempotentHint`
 * false -> true, `openWorldHint` true -> false. So `destructiveHint` true -> absent is no
 * move (absent means true) and false -> absent is more caution. When `readOnlyHint` moved,
 * the `destructiveHint` and `idempotentHint` moves it implies are not reported again.
 */
export function lessCautionMoves(
  before: ToolAnnotations | undefined,
  after: ToolAnnotations | undefined,
): HintMove[] {
  const effectiveBefore = effectiveAnnotations(before);
  const effectiveAfter = effectiveAnnotations(after);
  // The spec defaults are the cautious values: what a client must assume of a silent tool.
  const moved = HINT_NAMES.filter(
    (hint) =>
      effectiveBefore[hint] === SPEC_DEFAULT_HINTS[hint] &&
      effectiveAfter[hint] !== SPEC_DEFAULT_HINTS[hint],
  );
  const implied = moved.includes('readOnlyHint');
  return moved
    .filter((hint) => !(implied && (hint === 'destructiveHint' || hint === 'idempotentHint')))
    .map((hint) => ({
      hint,
      from: before?.[hint],
      to: after?.[hint],
      effectiveFrom: effectiveBefore[hint],
      effectiveTo: effectiveAfter[hint],
    }));
}

const SEVERITY_ORDER: Record<PinSeverity, number> = { high: 0, medium: 1, low: 2 };

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function changedFields(pinned: PinnedTool, now: DefinitionDigests['fields']): DefinitionField[] {
  return DEFINITION_FIELDS.filter((field) => pinned.fields[field] !== now[field]);
}

/**
 * Compares the tools a server lists now with its pins in `lock`: per tool a
 * {@link PinStatus}, and findings. A hint that moved toward less caution (see
 * {@link lessCautionMoves}) is `high`; any other change of a pinned tool and a rename are
 * `medium`; new and removed tools are `low`. A renamed tool is a listed tool with no pin
 * whose definition without its name equals that of a pinned tool no longer listed (pairs
 * are matched in name order).
 */
export function comparePins(lock: LockFile, options: ComparePinsOptions): PinReport {
  const { server, listings, digests = definitionDigests } = options;
  if (typeof server !== 'string' || server === '') {
    throw new HintgateError('invalid_option', 'comparePins: server must be a non-empty name.');
  }
  const pins = ownValue(lock.servers, server)?.tools ?? {};
  const byName = new Map<string, ToolListing>();
  for (const listing of listings) {
    if (byName.has(listing.name)) {
      throw new HintgateError(
        'invalid_option',
        `comparePins: server "${server}" lists tool "${listing.name}" twice.`,
      );
    }
    byName.set(listing.name, listing);
  }
  const states: ToolPinState[] = [];
  const findings: PinFinding[] = [];
  const finding = (id: PinFindingId, severity: PinSeverity, tool: string, message: string) => {
    findings.push({ id, severity, server, tool, message });
  };
  const where = (tool: string): string => `tool "${tool}" of server "${server}"`;

  const unpinned: ToolListing[] = [];
  for (const listing of [...byName.values()].sort((a, b) => compareText(a.name, b.name))) {
    const pinned = ownValue(pins, listing.name);
    // An unchanged tool matches its recorded definition: no digest of it is needed.
    const digest =
      pinned !== undefined && sameAsPinned(pinned, listing) ? undefined : digests(listing);
    const hash = digest === undefined ? (pinned as PinnedTool).hash : digest.hash;
    if (pinned === undefined) {
      unpinned.push(listing);
    } else if (pinned.hash === hash) {
      states.push({
        tool: listing.name,
        status: 'pinned',
        hash,
        pinnedHash: pinned.hash,
        ...(pinned.verdict === undefined ? {} : { verdict: pinned.verdict }),
      });
    } else {
      const fields = changedFields(pinned, (digest ?? digests(listing)).fields);
      const moves = hintMoves(pinned.annotations, listing.annotations);
      states.push({
        tool: listing.name,
        status: 'changed',
        hash,
        pinnedHash: pinned.hash,
        changedFields: fields,
        hintMoves: moves,
      });
      const annotationMoves = [
        ...moves.map(moveText),
        // The pin's own `annotations` keep only the hints; its recorded definition keeps all.
        ...(pinned.definition === undefined
          ? []
          : customRateLimitMove(
              pinned.definition.annotations as ToolAnnotations | undefined,
              listing.annotations,
            )),
      ];
      const what = fields.map((field) =>
        field === 'annotations' && annotationMoves.length > 0
          ? `annotations (${annotationMoves.join(', ')})`
          : field,
      );
      finding(
        'pin-changed',
        'medium',
        listing.name,
        `${where(listing.name)} changed since it was pinned (${what.length > 0 ? what.join(', ') : 'definition'}). It is blocked until its new definition is reviewed and pinned with \`hintgate pin\`.`,
      );
      for (const move of lessCautionMoves(pinned.annotations, listing.annotations)) {
        findings.push({
          id: 'pin-less-caution',
          severity: 'high',
          server,
          tool: listing.name,
          move,
          message: `${where(listing.name)} moved ${moveText(move)} (effective ${move.effectiveFrom} -> ${move.effectiveTo}) since it was pinned: ${LESS_CAUTION_EFFECT[move.hint]}. Check that the tool really changed before pinning it again.`,
        });
      }
    }
  }

  const gone = Object.entries(pins)
    .filter(([name]) => !byName.has(name))
    .sort(([a], [b]) => compareText(a, b));
  // Pins no longer listed by body hash, in name order: each is matched to one rename at most.
  const goneByBody = new Map<string, [string, PinnedTool][]>();
  for (const entry of gone) {
    const same = goneByBody.get(entry[1].bodyHash);
    if (same === undefined) goneByBody.set(entry[1].bodyHash, [entry]);
    else same.push(entry);
  }
  const renamedFrom = new Set<string>();
  for (const listing of unpinned) {
    const { hash, bodyHash: body } = digests(listing);
    const match = goneByBody.get(body)?.shift();
    if (match === undefined) {
      states.push({ tool: listing.name, status: 'new', hash });
      finding(
        'pin-new',
        'low',
        listing.name,
        `${where(listing.name)} is not pinned. Review it and pin it with \`hintgate pin\`.`,
      );
      continue;
    }
    const [old, pin] = match;
    renamedFrom.add(old);
    states.push({
      tool: listing.name,
      status: 'renamed',
      hash,
      pinnedHash: pin.hash,
      renamedFrom: old,
    });
    finding(
      'pin-renamed',
      'medium',
      listing.name,
      `${where(listing.name)} has the pinned definition of "${old}", which is no longer listed: it was renamed. It is not pinned under its new name; pin it with \`hintgate pin\` if the rename is expected.`,
    );
  }
  for (const [name, pin] of gone) {
    if (renamedFrom.has(name)) continue;
    states.push({ tool: name, status: 'removed', pinnedHash: pin.hash });
    finding(
      'pin-removed',
      'low',
      name,
      `${where(name)} is pinned but no longer listed. Pin again with \`hintgate pin\` to drop it from the lock file.`,
    );
  }

  states.sort((a, b) => compareText(a.tool, b.tool));
  findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      compareText(a.tool, b.tool) ||
      PIN_FINDING_IDS.indexOf(a.id) - PIN_FINDING_IDS.indexOf(b.id),
  );
  return { server, tools: states, findings };
}
