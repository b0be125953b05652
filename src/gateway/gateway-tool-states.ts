import {
  formatPinReview,
  type LockFile,
  type PinReport,
  type PinStatus,
  type PinVerdict,
} from '../check/pin.js';
import type { ShadowedTool, ToolLayer, ToolRegistry } from '../registry/index.js';
import type {
  EffectiveHints,
  RateLimit,
  ToolAnnotations,
  ToolClass,
  ToolListing,
} from '../tool/index.js';

/** What the pins say of one tool, as the gateway last applied them. */
export interface ToolPinDetail {
  /** The tool's server. */
  readonly server: string;
  /** Its name on the server (before any prefix). */
  readonly nameOnServer: string;
  /** `pinned`, `changed` (since it was pinned), `new` or `renamed` (not pinned yet). */
  readonly status: PinStatus;
  /** The side-effect probe's verdict recorded with the pin, if any. */
  readonly verdict?: PinVerdict;
  /** One server's review lines of `hintgate pin` for this tool, when it is not `pinned`. */
  readonly review?: readonly string[];
}

/** Everything the gateway knows of one tool it offers or holds back. */
export interface GatewayToolState {
  /** The name clients call it by (or the name it is known by while held back). */
  readonly name: string;
  /** Its server (origin). */
  readonly server: string;
  /** Its name on the server, when the gateway knows it. */
  readonly nameOnServer?: string;
  /** The registry layer of its origin. */
  readonly layer: ToolLayer;
  /** Definitions of the same name in earlier layers that this one hides. */
  readonly shadows: readonly ShadowedTool[];
  /** Annotations as the tool claims them, with the configuration's overrides over them. */
  readonly claimed: ToolAnnotations;
  /** The hints hintgate acts on (the spec defaults when the annotations are not trusted). */
  readonly effective: EffectiveHints;
  /** Class from the effective hints. */
  readonly class: ToolClass;
  /** Whether its annotations are trusted (server trusted, override, or verified pin). */
  readonly trusted: boolean;
  /** Whether it is offered (not disabled, not held back). */
  readonly offered: boolean;
  /** Why it is held back by its pin; absent when it is not. */
  readonly heldBack?: string;
  /** Why every call asks (a tool not pinned yet under `pin.newTools: ask`). */
  readonly requireApproval?: string;
  /** What its pin says; absent for a tool no pin file covers (the embedded default). */
  readonly pin?: ToolPinDetail;
  /** Declared rate limit. */
  readonly rateLimit?: RateLimit;
  /** Timeout of one call, in milliseconds, when the tool sets one. */
  readonly timeoutMs?: number;
  /** Concurrency cap of its server; absent: unbounded. */
  readonly concurrency?: number;
}

/** What the gateway applied for one server, kept to describe its tools later. */
export interface AppliedServerPins {
  readonly server: string;
  readonly report: PinReport;
  readonly lock: LockFile;
  readonly listings: readonly ToolListing[];
  /** Name clients know each tool by, by its name on the server. */
  readonly exposed: ReadonlyMap<string, string>;
}

/**
 * One server's review lines for one tool, as `hintgate pin` shows them (no colours): the
 * fields that changed, hint moves and the diffs.
 */
const reviewOf = (applied: AppliedServerPins, tool: string): string[] => {
  const report: PinReport = {
    server: applied.server,
    tools: applied.report.tools.filter((state) => state.tool === tool),
    findings: applied.report.findings.filter((finding) => finding.tool === tool),
  };
  return [...formatPinReview({ report, lock: applied.lock, listings: applied.listings }).lines];
};

/**
 * The state of every tool in the gateway's registry: annotations claimed and effective,
 * trust, layer and shadowing from the registry; held back and pin status from the pins the
 * gateway applied last (`applied`, absent without a pin file); rate limit, timeout and the
 * server's concurrency cap. Sorted by server, then name.
 */
export function gatewayToolStates(options: {
  readonly registry: ToolRegistry;
  readonly blocked: ReadonlyMap<string, string>;
  readonly applied?: readonly AppliedServerPins[];
}): GatewayToolState[] {
  const { registry, blocked } = options;
  const pinByName = new Map<string, { applied: AppliedServerPins; tool: string }>();
  for (const applied of options.applied ?? []) {
    for (const [tool, exposed] of applied.exposed) pinByName.set(exposed, { applied, tool });
  }
  const states: GatewayToolState[] = [];
  for (const entry of registry.describe()) {
    const tool = registry.resolve(entry.name)?.tool;
    // What the gateway says of an upstream tool holds for that server's tool only, not for
    // a global or project tool that has its name.
    const byName = pinByName.get(entry.name);
    const pinned = byName?.applied.server === entry.origin ? byName : undefined;
    const pinState = pinned?.applied.report.tools.find((state) => state.tool === pinned.tool);
    const heldBack = entry.blocked === undefined ? undefined : blocked.get(entry.name);
    // As the runtime caps it: the origin's, else unbounded when trusted, else 1.
    const origin = registry.origin(entry.origin);
    const concurrency =
      origin?.concurrency ?? (origin?.trusted === true ? Number.POSITIVE_INFINITY : 1);
    states.push({
      name: entry.name,
      server: entry.origin,
      ...(pinned === undefined ? {} : { nameOnServer: pinned.tool }),
      layer: entry.layer,
      shadows: entry.shadows,
      claimed: entry.claimed,
      effective: entry.effective,
      class: entry.class,
      trusted: entry.trusted,
      offered: entry.visible && heldBack === undefined,
      ...(heldBack === undefined ? {} : { heldBack }),
      ...(entry.requireApproval === undefined
        ? {}
        : { requireApproval: entry.requireApproval.reason }),
      ...(pinned === undefined || pinState === undefined
        ? {}
        : {
            pin: {
              server: pinned.applied.server,
              nameOnServer: pinned.tool,
              status: pinState.status,
              ...(pinState.verdict === undefined ? {} : { verdict: pinState.verdict }),
              ...(pinState.status === 'pinned'
                ? {}
                : { review: reviewOf(pinned.applied, pinned.tool) }),
            },
          }),
      ...(tool?.rateLimit === undefined ? {} : { rateLimit: tool.rateLimit }),
      ...(tool?.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
      ...(concurrency === undefined || !Number.isFinite(concurrency) ? {} : { concurrency }),
    });
  }
  return states.sort((a, b) =>
    a.server === b.server ? a.name.localeCompare(b.name) : a.server.localeCompare(b.server),
  );
}
